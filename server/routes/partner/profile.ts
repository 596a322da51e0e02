import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { profileUpdatePayload, responseSchemas, type ProfileUpdatePayload } from '../../../contract/server';
import { badRequest, conflict, unauthorized } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { hashPassword, verifyPassword } from '../../services/passwords';
import {
  EmailTakenError,
  findPartnerById,
  loadUser,
  normaliseEmail,
  updateProfile,
  type ProfileChanges,
} from '../../services/users';

const WINDOW_MS = 15 * 60 * 1000;

/**
 * Changing the email or the password is what someone holding a stolen access token would do to take
 * the account over, so both need the current password; wrong guesses are limited per partner.
 */
async function checkCurrentPassword(
  app: FastifyInstance,
  account: { id: string; password_hash: string },
  currentPassword: string | undefined,
) {
  if (!currentPassword) {
    throw badRequest('current_password_required', { current_password: 'current_password_required' });
  }
  await app.enforceLimits([{ key: `profile:current-password:${account.id}`, max: 10, windowMs: WINDOW_MS }]);
  if (!(await verifyPassword(account.password_hash, currentPassword))) {
    throw badRequest('current_password_wrong', { current_password: 'current_password_wrong' });
  }
}

async function changesFrom(
  app: FastifyInstance,
  account: { id: string; email: string; password_hash: string },
  body: ProfileUpdatePayload,
): Promise<ProfileChanges> {
  const email = body.email === undefined ? undefined : normaliseEmail(body.email);
  // Re-sending the current address (in any case) is not a change and needs no password.
  const emailChanges = email !== undefined && email !== account.email;
  if (emailChanges || body.new_password !== undefined) {
    await checkCurrentPassword(app, account, body.current_password);
  }
  return {
    full_name: body.full_name,
    phone_number: body.phone_number,
    location: body.location,
    email: emailChanges ? email : undefined,
    password_hash: body.new_password === undefined ? undefined : await hashPassword(body.new_password),
  };
}

/**
 * PATCH /profile: updates the signed-in partner's own profile; there is no id in the path, the
 * access token alone says whose. Answers the updated user. A new password signs out every other
 * session of the partner but keeps this one, unless `sign_out_others` is false (docs/API.md#sessions).
 */
export const profileRoute: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodMiniTypeProvider>();
  app.patch(
    '/profile',
    { schema: { body: profileUpdatePayload, response: responseSchemas('PATCH partner /profile') } },
    async (request, reply) => {
      const partner = request.partner;
      const account = partner ? await findPartnerById(app.db, partner.userId) : null;
      if (!partner || !account) throw unauthorized('session_expired');
      const changes = await changesFrom(app, account, request.body);
      const target = {
        userId: account.id,
        sessionFamilyId: partner.sessionId,
        // Left out, the others end: a password is usually changed because someone else may know it.
        signOutOthers: request.body.sign_out_others ?? true,
      };
      try {
        await app.sessionCache.revoked(await updateProfile(app.db, target, changes, app.clock()));
      } catch (error) {
        if (error instanceof EmailTakenError) throw conflict('email_taken');
        throw error;
      }
      const user = await loadUser(app.db, account.id);
      if (!user) throw unauthorized('session_expired');
      return success(reply, user);
    },
  );
};
