import type { FastifyPluginAsync } from 'fastify';
import { resetPasswordPayload } from '../../../contract';
import { badRequest } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { hashPassword } from '../../services/passwords';
import { resetPassword } from '../../services/users';

const WINDOW_MS = 15 * 60 * 1000;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST /reset-password: the link's token sets a new password once. A forged, expired, already used
 * or superseded token (the password changed since it was sent) gets the same 400. On success every
 * session of the partner is revoked: whoever knew the old password is signed out everywhere.
 */
export const resetPasswordRoute: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodMiniTypeProvider>();
  app.post('/reset-password', { schema: { body: resetPasswordPayload } }, async (request, reply) => {
    await app.enforceLimits([{ key: `reset-password:ip:${request.ip}`, max: 10, windowMs: WINDOW_MS }]);
    const claims = await app.tokens.readReset(request.body.token);
    // The claims come from our own key, but a malformed id must not reach a uuid column (a 500).
    if (!claims || !UUID_PATTERN.test(claims.sub) || !UUID_PATTERN.test(claims.jti)) {
      throw badRequest('token_invalid');
    }
    // Hashed before the token is spent, so the row is marked used and the password set in one short transaction.
    const passwordHash = await hashPassword(request.body.new_password);
    const done = await resetPassword(app.db, { userId: claims.sub, resetId: claims.jti }, passwordHash, app.clock());
    if (!done) throw badRequest('token_invalid');
    return success(reply, null);
  });
};
