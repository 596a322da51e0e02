/**
 * Authentication: access tokens on partner calls, and the X-Origin check on cookie calls.
 * An access token is honoured only while its session is alive, checked on every call through the
 * session cache (plugins/session-cache.ts), so a sign-out or a device signed out from the list takes
 * effect at once on every instance.
 */
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { forbidden, unauthorized } from '../http/errors';
import type { Clock } from '../services/clock';
import { coarseAddress } from '../services/device';
import { handoverKeyFor } from '../services/keys';
import { touchSession, TOUCH_INTERVAL_MS } from '../services/sessions';
import { Tokens } from '../services/tokens';

export interface AuthenticatedPartner {
  userId: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    tokens: Tokens;
    clock: Clock;
    /** Names a refresh token's successor at its rotation (services/sessions.ts#successorOf). */
    successorKey: Buffer;
    /** The partner's hand-over key, handed to their tablets at every sign-in (services/keys.ts). */
    handoverKeyOf: (partnerId: string, generation: number) => string;
    /**
     * onRequest hook of the routes an access token opens: sets request.partner, or answers 401
     * (`unauthorized` without a token, `session_revoked` for a revoked session, `session_expired` otherwise).
     */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /**
     * Who the access token says the caller is, from the token alone (no database call), with the
     * same 401s as authenticate; authenticate must still follow before anything is answered.
     */
    claimedPartnerId: (request: FastifyRequest) => Promise<string>;
    /** preHandler for cookie-authenticated calls: answers 403 for a foreign X-Origin. */
    checkOrigin: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    partner: AuthenticatedPartner | null;
  }
}

/** Families whose last use this instance remembers, beyond which the old ones are forgotten. */
const TOUCHED_MAX = 10_000;

/**
 * The family's last use, written at most once per TOUCH_INTERVAL_MS: this instance remembers each
 * family's last use as the database last told it, and asks again only once the interval has passed
 * since; the database writes at most that often whatever the number of instances (touchSession's
 * condition). A failure is logged and never fails the call.
 */
function sessionToucher(db: Database) {
  const lastUse = new Map<string, number>();
  return async (request: FastifyRequest, familyId: string, now: Date) => {
    const at = now.getTime();
    const known = lastUse.get(familyId);
    if (known !== undefined && at >= known && at - known < TOUCH_INTERVAL_MS) return;
    if (lastUse.size >= TOUCHED_MAX) {
      for (const [id, when] of lastUse) if (at - when >= TOUCH_INTERVAL_MS) lastUse.delete(id);
      if (lastUse.size >= TOUCHED_MAX) lastUse.clear();
    }
    try {
      const stored = await touchSession(db, familyId, now, coarseAddress(request.ip));
      lastUse.set(familyId, stored?.getTime() ?? at);
    } catch (error) {
      lastUse.set(familyId, at);
      request.log.warn({ err: error }, "a session's last use could not be recorded");
    }
  };
}

export const authPlugin = fp<{ config: Config; clock: Clock }>(
  async (app, { config, clock }) => {
    const keys = app.serverKeys;
    app.decorate('clock', clock);
    app.decorate('tokens', new Tokens(keys, clock));
    app.decorate('successorKey', keys.successor);
    app.decorate('handoverKeyOf', (partnerId: string, generation: number) =>
      handoverKeyFor(keys.handover, partnerId, generation),
    );
    app.decorateRequest('partner', null);
    const touch = sessionToucher(app.db);

    const claimsOf = async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
      if (!token) throw unauthorized('unauthorized');
      const claims = await app.tokens.readAccess(token);
      if (!claims) throw unauthorized('session_expired');
      return claims;
    };
    app.decorate('claimedPartnerId', async (request: FastifyRequest) => (await claimsOf(request)).sub);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const claims = await claimsOf(request);
      // The token is ours (encrypted with our key), so its sid and sub belong together.
      const session = await app.sessionCache.stateOf(claims.sid);
      if (session.state === 'revoked') throw unauthorized('session_revoked');
      if (session.state !== 'live' || session.userId !== claims.sub) throw unauthorized('session_expired');
      await touch(request, claims.sid, clock());
      request.partner = { userId: claims.sub, sessionId: claims.sid };
    });

    const allowed = new Set(config.allowedOrigins);
    app.decorate('checkOrigin', async (request: FastifyRequest) => {
      const origin = request.headers['x-origin'];
      if (typeof origin !== 'string' || !allowed.has(origin)) throw forbidden('forbidden_origin');
    });
  },
  { name: 'auth', dependencies: ['database', 'session-cache', 'keys'] },
);
