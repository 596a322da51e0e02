import type { FastifyPluginAsync } from 'fastify';
import { registerPayload, responseSchemas } from '../../../contract/server';
import type { Config } from '../../config';
import { conflict } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { createPartnerAccount, normaliseEmail } from '../../services/users';
import { setDeviceCookie } from './device-cookie';
import { signIn } from './session-cookie';

const WINDOW_MS = 60 * 60 * 1000;

/**
 * POST /register/partner: creates the partner and signs them in (a session cookie, as a sign-in
 * without remember_me, and the device cookie). A taken email gets a 409 that says no more than "not with this email".
 */
export const registerRoute: FastifyPluginAsync<{ config: Config }> = async (instance, { config }) => {
  const app = instance.withTypeProvider<ZodMiniTypeProvider>();
  app.post(
    '/register/partner',
    { schema: { body: registerPayload, response: responseSchemas('POST auth /register/partner') } },
    async (request, reply) => {
      await app.enforceLimits([{ key: `register:ip:${request.ip}`, max: 5, windowMs: WINDOW_MS }]);
      const userId = await createPartnerAccount(app.db, request.body, app.clock());
      if (!userId) throw conflict('email_taken');
      const session = await signIn(app, request, reply, config, userId, false);
      await setDeviceCookie(app, reply, config, normaliseEmail(request.body.email));
      return success(reply, session, 201);
    },
  );
};
