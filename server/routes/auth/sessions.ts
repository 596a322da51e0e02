/**
 * The partner's signed-in devices (docs/API.md#sessions): each session family is one device. Opened
 * by the access token, as the partner calls are: a stolen tablet is signed out from any other device
 * of the garage, and at once on every instance (plugins/session-cache.ts).
 */
import type { FastifyPluginAsync, RawServerDefault } from 'fastify';
import type * as z from 'zod/mini';
import {
  responseSchemas,
  sessionParams,
  sessionsDeleteQuery,
  type deviceSessionRecord,
} from '../../../contract/server';
import type { Config } from '../../config';
import { notFound, unauthorized } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { listSessions, revokeFamilyOf, revokeSessionsOf, type DeviceSession } from '../../services/sessions';
import { clearRefreshCookie } from './session-cookie';

type ZodRoutes = FastifyPluginAsync<{ config: Config }, RawServerDefault, ZodMiniTypeProvider>;
type DeviceSessionRecord = z.output<typeof deviceSessionRecord>;

function record(session: DeviceSession, currentId: string): DeviceSessionRecord {
  return {
    id: session.id,
    device: session.device,
    signed_in_at: session.signedInAt.toISOString(),
    last_used_at: session.lastUsedAt.toISOString(),
    address: session.address,
    current: session.id === currentId,
  };
}

/**
 * GET /sessions: the caller's own first, then the most recently used. DELETE /sessions/{id} ends one
 * (the caller's own too: that signs this device out, and its refresh cookie is cleared); DELETE
 * /sessions?others=true ends all but the caller's. Another partner's session is as unknown as one that
 * never was: 404 session_not_found, so ids cannot be probed.
 */
export const sessionsRoutes: ZodRoutes = async (app, { config }) => {
  // onRequest: a caller without a live session is turned away before anything else is read.
  app.addHook('onRequest', app.authenticate);

  app.get('/sessions', { schema: { response: responseSchemas('GET auth /sessions') } }, async (request, reply) => {
    const partner = request.partner;
    if (!partner) throw unauthorized();
    const sessions = await listSessions(app.db, partner.userId, app.clock());
    const current = sessions.filter((session) => session.id === partner.sessionId);
    const others = sessions.filter((session) => session.id !== partner.sessionId);
    return success(
      reply,
      [...current, ...others].map((session) => record(session, partner.sessionId)),
    );
  });

  app.delete(
    '/sessions/:id',
    { schema: { params: sessionParams, response: responseSchemas('DELETE auth /sessions/{id}') } },
    async (request, reply) => {
      const partner = request.partner;
      if (!partner) throw unauthorized();
      const familyId = request.params.id.toLowerCase();
      if (!(await revokeFamilyOf(app.db, partner.userId, familyId, app.clock()))) throw notFound('session_not_found');
      await app.sessionCache.revoked([familyId]);
      if (familyId === partner.sessionId) clearRefreshCookie(reply, config);
      return success(reply, null);
    },
  );

  app.delete(
    '/sessions',
    { schema: { querystring: sessionsDeleteQuery, response: responseSchemas('DELETE auth /sessions') } },
    async (request, reply) => {
      const partner = request.partner;
      if (!partner) throw unauthorized();
      await app.sessionCache.revoked(await revokeSessionsOf(app.db, partner.userId, app.clock(), partner.sessionId));
      return success(reply, null);
    },
  );
};
