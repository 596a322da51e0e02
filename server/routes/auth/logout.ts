import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { responseSchemas } from '../../../contract/server';
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
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = readRefreshCookie(request);
    if (token) await app.sessionCache.revoked(await revokeFamilyOfToken(app.db, token, app.clock()));
    clearRefreshCookie(reply, config);
    return success(reply, null);
  };
  // One route per method, each with its own entry in the contract (and the reference).
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/logout/partner',
      schema: { response: responseSchemas(`${method} auth /logout/partner`) },
      preHandler: app.checkOrigin,
      handler,
    });
  }
};
