import type { FastifyPluginAsync } from 'fastify';
import { loginPayload } from '../../../contract';
import type { Config } from '../../config';
import { unauthorized } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { normaliseEmail, verifyCredentials } from '../../services/users';
import { signIn } from './session-cookie';

const WINDOW_MS = 15 * 60 * 1000;

/**
 * POST /login: a new session family and its refresh cookie. A wrong email and a wrong password get
 * the same answer in about the same time, so the form cannot be used to find accounts.
 */
export const loginRoute: FastifyPluginAsync<{ config: Config }> = async (instance, { config }) => {
  const app = instance.withTypeProvider<ZodMiniTypeProvider>();
  app.post('/login', { schema: { body: loginPayload } }, async (request, reply) => {
    const email = normaliseEmail(request.body.email);
    // Counted before the password hash is checked: that is the work an attacker wants us to repeat.
    await app.enforceLimits([
      { key: `login:email:${email}`, max: 10, windowMs: WINDOW_MS },
      { key: `login:ip:${request.ip}`, max: 50, windowMs: WINDOW_MS },
    ]);
    const userId = await verifyCredentials(app.db, email, request.body.password);
    if (!userId) throw unauthorized('invalid_credentials');
    return success(reply, await signIn(app, reply, config, userId, request.body.remember_me));
  });
};
