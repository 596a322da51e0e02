/**
 * Fixed-window counters for the auth routes, per IP and per email, with rate-limiter-flexible. In
 * Redis when REDIS_URL is set, so every instance behind a load balancer shares them (an atomic Lua
 * increment), with an in-memory insurance limiter while Redis is unreachable; in memory otherwise.
 */
import fp from 'fastify-plugin';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis as RedisClient } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type IRateLimiterOptions,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Config } from '../config';
import { tooManyRequests } from '../http/errors';

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

/** One limiter per (max, window), made on first use: rate-limiter-flexible fixes both per limiter. */
function limiterStore(make: (options: IRateLimiterOptions) => RateLimiterAbstract) {
  const limiters = new Map<string, RateLimiterAbstract>();
  return async ({ key, max, windowMs }: Limit) => {
    const id = `${max}:${windowMs}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = make({ points: max, duration: Math.max(1, Math.ceil(windowMs / 1000)) });
      limiters.set(id, limiter);
    }
    // Over the limit, consume() rejects with the result (the hit is still counted).
    const res = await limiter.consume(key).catch((error: unknown) => {
      if (error instanceof RateLimiterRes) return error;
      throw error;
    });
    return { count: res.consumedPoints, resetInMs: res.msBeforeNext };
  };
}

/** In this process's memory; each key is dropped when its window ends, so the map stays bounded. */
function flexibleMemoryStore(): RateLimitStore {
  return { hit: limiterStore((options) => new RateLimiterMemory(options)), async close() {} };
}

/** How long the start waits for Redis before counting in memory (it keeps trying behind the scenes). */
const REDIS_CONNECT_WAIT_MS = 3_000;
/** A Redis that stops answering must not hold sign-in up: a command that takes longer fails. */
const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/** host:port of a Redis URL, for the log: never its password. */
function redisAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '6379'}`;
}

/**
 * Logs Redis going away and coming back, once each time: not once per failed reconnection or per
 * request counted in memory meanwhile.
 */
function outageReporter(log: FastifyBaseLogger, address: string) {
  let reachable = true;
  return {
    down(reason: string) {
      if (!reachable) return;
      reachable = false;
      log.warn(
        `Redis at ${address} unreachable (${reason}): rate limits are counted in this instance's memory until it is back`,
      );
    },
    up() {
      if (reachable) return;
      reachable = true;
      log.warn(`Redis at ${address} is back: rate limits are counted in Redis again`);
    },
  };
}

/** Resolves once the client is ready or has failed its first attempt, or after the wait. */
function firstConnection(redis: RedisClient): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, REDIS_CONNECT_WAIT_MS);
    redis.once('ready', done);
    redis.once('error', done);
  });
}

/**
 * Counters in Redis, shared by every instance. While Redis is away (at start or later) the
 * insurance limiter counts each hit in this instance's memory, so sign-in keeps working with
 * per-instance limits; ioredis reconnects on its own and the counting moves back to Redis once it
 * is ready again.
 */
async function redisStore(url: string, prefix: string, log: FastifyBaseLogger): Promise<RateLimitStore> {
  const { Redis } = await import('ioredis');
  const outage = outageReporter(log, redisAddress(url));
  const redis = new Redis(url, {
    // Fail at once while disconnected, rather than queue commands until Redis returns.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Listening to errors also keeps ioredis from printing "Unhandled error event" on each retry.
  redis.on('error', (error: Error) => outage.down(error.message));
  redis.on('close', () => outage.down('connection closed'));
  redis.on('ready', () => outage.up());
  await firstConnection(redis);

  /** The insurance limiter: it only counts when a Redis command failed or the connection is not ready. */
  class Insurance extends RateLimiterMemory {
    override consume(...args: Parameters<RateLimiterMemory['consume']>) {
      outage.down(redis.status === 'ready' ? 'command failed' : 'connection lost');
      return super.consume(...args);
    }
  }
  // rate-limiter-flexible joins its prefix and the key with ':'.
  const keyPrefix = prefix.replace(/:$/, '');
  return {
    hit: limiterStore(
      (options) =>
        new RateLimiterRedis({
          ...options,
          storeClient: redis,
          keyPrefix,
          rejectIfRedisNotReady: true,
          insuranceLimiter: new Insurance(options),
        }),
    ),
    async redisAnswers() {
      if (redis.status !== 'ready') return false;
      // Bounded by REDIS_COMMAND_TIMEOUT_MS, like every command.
      return redis.ping().then(
        () => true,
        () => false,
      );
    },
    async close() {
      redis.disconnect();
    },
  };
}

/**
 * Windows run on the real clock (Date.now and timers, as rate-limiter-flexible reads them), not the
 * app's injectable one: tests move time past a window with vitest's fake timers.
 */
export interface RateLimitOptions {
  config: Config;
  /** Tests give each app its own Redis key prefix to stay independent of each other. */
  redisPrefix?: string;
}

export const rateLimitPlugin = fp<RateLimitOptions>(
  async (app, { config, redisPrefix }) => {
    const backend = config.redisUrl
      ? await redisStore(config.redisUrl, redisPrefix ?? 'rl:', app.log)
      : flexibleMemoryStore();
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
  { name: 'rate-limit' },
);
