import type { FastifyPluginAsync } from 'fastify';
import { resetPasswordPayload, responseSchemas } from '../../../contract/server';
import type { Config } from '../../config';
import { badRequest } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { hashPassword } from '../../services/passwords';
import { loadUser, resetPassword } from '../../services/users';
import { setDeviceCookie } from './device-cookie';

const WINDOW_MS = 15 * 60 * 1000;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST /reset-password: the link's token sets a new password once. A forged, expired, already used
 * or superseded token (the password changed since it was sent) gets the same 400. On success every
 * session of the partner is revoked: whoever knew the old password is signed out everywhere.
 * The browser that did it gets the device cookie: it has just proved it reads the partner's mail,
 * so a stranger's guessing cannot keep it from signing in with the new password.
 */
export const resetPasswordRoute: FastifyPluginAsync<{ config: Config }> = async (instance, { config }) => {
  const app = instance.withTypeProvider<ZodMiniTypeProvider>();
  app.post(
    '/reset-password',
    { schema: { body: resetPasswordPayload, response: responseSchemas('POST auth /reset-password') } },
    async (request, reply) => {
      await app.enforceLimits([{ key: `reset-password:ip:${request.ip}`, max: 10, windowMs: WINDOW_MS }]);
      const claims = await app.tokens.readReset(request.body.token);
      // The claims come from our own key, but a malformed id must not reach a uuid column (a 500).
      if (!claims || !UUID_PATTERN.test(claims.sub) || !UUID_PATTERN.test(claims.jti)) {
        throw badRequest('token_invalid');
      }
      // Hashed before the token is spent, so the row is marked used and the password set in one short transaction.
      const passwordHash = await hashPassword(request.body.new_password);
      const revoked = await resetPassword(
        app.db,
        { userId: claims.sub, resetId: claims.jti },
        passwordHash,
        app.clock(),
      );
      if (!revoked) throw badRequest('token_invalid');
      await app.sessionCache.revoked(revoked);
      const user = await loadUser(app.db, claims.sub);
      if (user) await setDeviceCookie(app, reply, config, user.email);
      return success(reply, null);
    },
  );
};
