/**
 * The session check of every access token (plugins/auth.ts), through a cache shared by the instances
 * (docs/decisions/0023-session-revocation-cache.md). With Redis (plugins/redis.ts) each family's state
 * is kept there for at most `ttlMs`; without it, or while it is away, every check reads the database,
 * which every instance shares too. Either way a revocation reaches every instance:
 *
 * - at once through the cache: whoever revokes a family writes its revoked state over the cached one
 *   (a tombstone, for `ttlMs`), after the database, and a state read from the database is cached only
 *   where nothing is (SET NX), so a read that raced the revocation never covers its tombstone;
 * - within `ttlMs` otherwise: a revocation that did not pass through here (written in the database by
 *   hand, or while Redis was unreachable from the instance revoking) ends when the entry does.
 */
import fp from 'fastify-plugin';
import type { Clock } from '../services/clock';
import { familyState, type FamilyState } from '../services/sessions';
import type { SharedRedis } from './redis';

/**
 * How long a family's state may be served from Redis: the longest a revocation made behind the
 * cache's back takes to be seen. The issue asks for a minute at most; half of it costs one indexed
 * query per signed-in device every 30 s.
 */
export const SESSION_CACHE_TTL_MS = 30_000;

export interface SessionCache {
  /** Where the states come from: Redis (with the database behind it), or the database alone. */
  readonly kind: 'redis' | 'database';
  /** The family's state, from the cache when it holds a usable one, else from the database. */
  stateOf(familyId: string): Promise<FamilyState>;
  /** Tells the cache these families were revoked; call it once the revocation has committed. */
  revoked(familyIds: readonly string[]): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessionCache: SessionCache;
  }
}

interface SharedStates {
  get(familyId: string): Promise<FamilyState | null>;
  fill(familyId: string, state: FamilyState): Promise<void>;
  tombstone(familyIds: readonly string[]): Promise<void>;
}

const STATES = new Set(['live', 'revoked', 'gone']);

function parseState(text: string | null): FamilyState | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as FamilyState;
    return STATES.has(value.state) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The states in Redis under `prefix` + family id, each for `ttlMs`. Any failure is a miss (the
 * database answers) and is reported as Redis being away, once.
 */
function redisStates(redis: SharedRedis, prefix: string, ttlMs: number): SharedStates {
  const key = (familyId: string) => `${prefix}${familyId}`;
  const failed = () => {
    redis.down(redis.ready() ? 'command failed' : 'connection lost');
    return null;
  };
  return {
    async get(familyId) {
      if (!redis.ready()) return failed();
      return redis.client.get(key(familyId)).then(parseState, failed);
    },
    async fill(familyId, state) {
      if (!redis.ready()) return;
      await redis.client.set(key(familyId), JSON.stringify(state), 'PX', ttlMs, 'NX').catch(failed);
    },
    async tombstone(familyIds) {
      if (familyIds.length === 0) return;
      if (!redis.ready()) {
        failed();
        return;
      }
      const revoked = JSON.stringify({ state: 'revoked' } satisfies FamilyState);
      const batch = redis.client.multi();
      for (const familyId of familyIds) batch.set(key(familyId), revoked, 'PX', ttlMs);
      await batch.exec().catch(failed);
    },
  };
}

export interface SessionCacheOptions {
  clock: Clock;
  /** Prefix of the Redis keys (tests give two apps the same one to play two instances). */
  redisPrefix?: string;
  /** SESSION_CACHE_TTL_MS unless given (tests use a short one). */
  ttlMs?: number;
}

export const sessionCachePlugin = fp<SessionCacheOptions>(
  async (app, { clock, redisPrefix, ttlMs = SESSION_CACHE_TTL_MS }) => {
    const shared = app.redis ? redisStates(app.redis, `${redisPrefix ?? ''}session:`, ttlMs) : null;
    const fromDatabase = (familyId: string) => familyState(app.db, familyId, clock());
    app.decorate('sessionCache', {
      kind: shared ? 'redis' : 'database',
      async stateOf(familyId: string) {
        if (!shared) return fromDatabase(familyId);
        const cached = await shared.get(familyId);
        // A live state whose expiry has passed may be stale (a refresh elsewhere renews it): ask again.
        if (cached && !(cached.state === 'live' && cached.expiresAt <= clock().getTime())) return cached;
        const state = await fromDatabase(familyId);
        if (!cached) await shared.fill(familyId, state);
        return state;
      },
      async revoked(familyIds: readonly string[]) {
        await shared?.tombstone(familyIds);
      },
    } satisfies SessionCache);
  },
  { name: 'session-cache', dependencies: ['database', 'redis'] },
);
