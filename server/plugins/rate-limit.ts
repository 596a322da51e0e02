/**
 * Fixed-window counters for the auth routes, per IP and per email, with rate-limiter-flexible. In
 * Redis when REDIS_URL is set (the connection of plugins/redis.ts), so every instance behind a load
 * balancer shares them (an atomic Lua increment), with an in-memory insurance limiter while Redis is
 * unreachable; in memory otherwise.
 */
import fp from 'fastify-plugin';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type IRateLimiterOptions,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { tooManyRequests } from '../http/errors';
import type { SharedRedis } from './redis';

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

interface RateLimitStore {
  /** Counts one hit on the limit's key; returns the count in the current window and the ms left in it. */
  hit(limit: Limit): Promise<{ count: number; resetInMs: number }>;
  /** Whether Redis answers right now (a Redis store only): what the readiness probe reports. */
  redisAnswers?(): Promise<boolean>;
  close(): Promise<void>;
}

/** Redis as the readiness probe reports it (docs/API.md#get-apihealthready): it never fails readiness. */
export type RedisState = 'ok' | 'down' | 'not_configured';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts a hit on every limit and throws 429 when any is over. */
    enforceLimits(limits: Limit[]): Promise<void>;
    /** Whether the rate limits' Redis answers a PING (within the command timeout), or none is configured. */
    redisState(): Promise<RedisState>;
  }
}

/** One per (max, window), made on first use: rate-limiter-flexible fixes both per limiter. */
function perLimit<T>(make: (options: IRateLimiterOptions, limit: Limit) => T): (limit: Limit) => T {
  const made = new Map<string, T>();
  return (limit: Limit) => {
    const { max, windowMs } = limit;
    const id = `${max}:${windowMs}`;
    let limiter = made.get(id);
    if (!limiter) {
      limiter = make({ points: max, duration: Math.max(1, Math.ceil(windowMs / 1000)) }, limit);
      made.set(id, limiter);
    }
    return limiter;
  };
}

/** Counts one hit on the limit's key with the limiter `pick` gives for it. */
function limiterStore(pick: (limit: Limit) => RateLimiterAbstract) {
  return async (limit: Limit) => {
    // Over the limit, consume() rejects with the result (the hit is still counted).
    const res = await pick(limit)
      .consume(limit.key)
      .catch((error: unknown) => {
        if (error instanceof RateLimiterRes) return error;
        throw error;
      });
    return { count: res.consumedPoints, resetInMs: res.msBeforeNext };
  };
}

/** In this process's memory; each key is dropped when its window ends, so the map stays bounded. */
function flexibleMemoryStore(): RateLimitStore {
  return { hit: limiterStore(perLimit((options) => new RateLimiterMemory(options))), async close() {} };
}

/**
 * Counters in Redis, shared by every instance. While Redis is away (at start or later) the
 * insurance limiter counts each hit in this instance's memory, so sign-in keeps working with
 * per-instance limits; ioredis reconnects on its own and the counting moves back to Redis once it
 * is ready again.
 */
function redisStore(redis: SharedRedis, prefix: string): RateLimitStore {
  /** The insurance limiter: it only counts when a Redis command failed or the connection is not ready. */
  class Insurance extends RateLimiterMemory {
    override consume(...args: Parameters<RateLimiterMemory['consume']>) {
      redis.down(redis.ready() ? 'command failed' : 'connection lost');
      return super.consume(...args);
    }
  }
  // rate-limiter-flexible joins its prefix and the key with ':'.
  const keyPrefix = prefix.replace(/:$/, '');
  const insuranceFor = perLimit((options) => new Insurance(options));
  const sharedFor = perLimit(
    (options, limit) =>
      new RateLimiterRedis({
        ...options,
        storeClient: redis.client,
        keyPrefix,
        rejectIfRedisNotReady: true,
        // The same counts whether Redis failed a command or is skipped.
        insuranceLimiter: insuranceFor(limit),
      }),
  );
  return {
    // A Redis skipped for now (lost, or hung: plugins/redis.ts) is not even asked.
    hit: limiterStore((limit) => (redis.ready() ? sharedFor(limit) : insuranceFor(limit))),
    async redisAnswers() {
      if (!redis.ready()) return false;
      // Bounded by the connection's command timeout (plugins/redis.ts), like every command.
      return redis.client.ping().then(
        () => true,
        () => false,
      );
    },
    // The connection is the redis plugin's, which closes it.
    async close() {},
  };
}

/**
 * Windows run on the real clock (Date.now and timers, as rate-limiter-flexible reads them), not the
 * app's injectable one: tests move time past a window with vitest's fake timers.
 */
export interface RateLimitOptions {
  /** Tests give each app its own Redis key prefix to stay independent of each other. */
  redisPrefix?: string;
}

export const rateLimitPlugin = fp<RateLimitOptions>(
  async (app, { redisPrefix }) => {
    const backend = app.redis ? redisStore(app.redis, redisPrefix ?? 'rl:') : flexibleMemoryStore();
    app.addHook('onClose', () => backend.close());
    app.decorate('enforceLimits', async (limits: Limit[]) => {
      let retryAfterMs = 0;
      for (const limit of limits) {
        const { count, resetInMs } = await backend.hit(limit);
        if (count > limit.max) retryAfterMs = Math.max(retryAfterMs, resetInMs);
      }
      if (retryAfterMs > 0) throw tooManyRequests(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    });
    app.decorate('redisState', async (): Promise<RedisState> => {
      if (!backend.redisAnswers) return 'not_configured';
      return (await backend.redisAnswers()) ? 'ok' : 'down';
    });
  },
  { name: 'rate-limit', dependencies: ['redis'] },
);
