import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { success } from '../../http/reply';
import { revokeFamilyOfToken } from '../../services/sessions';
import { clearRefreshCookie, ignoreJsonBody, readRefreshCookie } from './session-cookie';

/**
 * GET or POST /logout/partner: revokes the cookie's session family (its access tokens stop working
 * at once) and clears the cookie. Always 200: signing out must never fail in the user's face.
 */
export const logoutRoute: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  ignoreJsonBody(app);
  app.route({
    method: ['GET', 'POST'],
    url: '/logout/partner',
    preHandler: app.checkOrigin,
    handler: async (request, reply) => {
      const token = readRefreshCookie(request);
      if (token) await revokeFamilyOfToken(app.db, token, app.clock());
      clearRefreshCookie(reply, config);
      return success(reply, null);
    },
  });
};
