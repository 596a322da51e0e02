/**
 * Authentication: access tokens on partner calls, and the X-Origin check on cookie calls.
 * An access token is honoured only while its session is alive, so logout takes effect at once.
 */
import fp from 'fastify-plugin';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { sessions } from '../db/schema';
import { forbidden, unauthorized } from '../http/errors';
import type { Clock } from '../services/clock';
import { handoverKeyFor, loadTokenKeys } from '../services/keys';
import { Tokens } from '../services/tokens';

export interface AuthenticatedPartner {
  userId: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    tokens: Tokens;
    clock: Clock;
    /** The partner's hand-over key, handed to their tablets at every sign-in (services/keys.ts). */
    handoverKeyOf: (partnerId: string) => string;
    /** preHandler for partner routes: sets request.partner or answers 401. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler for cookie-authenticated calls: answers 403 for a foreign X-Origin. */
    checkOrigin: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    partner: AuthenticatedPartner | null;
  }
}

export const authPlugin = fp<{ config: Config; clock: Clock }>(
  async (app, { config, clock }) => {
    const keys = await loadTokenKeys(config.dataDir, {
      access: config.accessTokenKey,
      reset: config.resetTokenKey,
      handover: config.handoverKey,
    });
    app.decorate('clock', clock);
    app.decorate('tokens', new Tokens(keys, clock));
    app.decorate('handoverKeyOf', (partnerId: string) => handoverKeyFor(keys.handover, partnerId));
    app.decorateRequest('partner', null);

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
      if (!token) throw unauthorized('unauthorized');
      const claims = await app.tokens.readAccess(token);
      if (!claims) throw unauthorized('session_expired');
      const [session] = await app.db
        .select({ id: sessions.id })
        .from(sessions)
        .where(
          and(
            eq(sessions.family_id, claims.sid),
            eq(sessions.user_id, claims.sub),
            isNull(sessions.revoked_at),
            gt(sessions.expires_at, clock()),
          ),
        )
        .limit(1);
      if (!session) throw unauthorized('session_expired');
      request.partner = { userId: claims.sub, sessionId: claims.sid };
    });

    const allowed = new Set(config.allowedOrigins);
    app.decorate('checkOrigin', async (request: FastifyRequest) => {
      const origin = request.headers['x-origin'];
      if (typeof origin !== 'string' || !allowed.has(origin)) throw forbidden('forbidden_origin');
    });
  },
  { name: 'auth', dependencies: ['database'] },
);
