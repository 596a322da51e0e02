import type { FastifyPluginAsync } from 'fastify';
import type { Limit } from '../../plugins/rate-limit';
import { loginPayload, responseSchemas } from '../../../contract/server';
import type { Config } from '../../config';
import { unauthorized } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { normaliseEmail, verifyCredentials } from '../../services/users';
import { setDeviceCookie, trustedDevice } from './device-cookie';
import { signIn } from './session-cookie';

const WINDOW_MS = 15 * 60 * 1000;

/**
 * Per 15 minutes. A device that signed in as this email before (its device cookie) has a bucket of
 * its own. Everyone else shares these: per address and email, per address (one client spraying
 * many emails), and a looser ceiling per email across all addresses (a guesser with many addresses).
 */
const LOGIN_LIMITS = { perDevice: 10, perAddressAndEmail: 10, perAddress: 50, perEmail: 30 } as const;

function loginLimits(email: string, ip: string, device: string | null): Limit[] {
  if (device) return [{ key: `login:device:${device}`, max: LOGIN_LIMITS.perDevice, windowMs: WINDOW_MS }];
  return [
    { key: `login:ip-email:${ip}:${email}`, max: LOGIN_LIMITS.perAddressAndEmail, windowMs: WINDOW_MS },
    { key: `login:ip:${ip}`, max: LOGIN_LIMITS.perAddress, windowMs: WINDOW_MS },
    { key: `login:email:${email}`, max: LOGIN_LIMITS.perEmail, windowMs: WINDOW_MS },
  ];
}

/**
 * POST /login: a new session family and its refresh cookie. A wrong email and a wrong password get
 * the same answer in about the same time, so the form cannot be used to find accounts.
 */
export const loginRoute: FastifyPluginAsync<{ config: Config }> = async (instance, { config }) => {
  const app = instance.withTypeProvider<ZodMiniTypeProvider>();
  app.post(
    '/login',
    { schema: { body: loginPayload, response: responseSchemas('POST auth /login') } },
    async (request, reply) => {
      const email = normaliseEmail(request.body.email);
      // Counted before the password hash is checked: that is the work an attacker wants us to repeat.
      await app.enforceLimits(loginLimits(email, request.ip, await trustedDevice(app, request, email)));
      const userId = await verifyCredentials(app.db, email, request.body.password);
      if (!userId) throw unauthorized('invalid_credentials');
      const session = await signIn(app, request, reply, config, userId, request.body.remember_me);
      await setDeviceCookie(app, reply, config, email);
      return success(reply, session);
    },
  );
};
