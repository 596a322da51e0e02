/**
 * Fixed-window counters for the auth routes, per IP and per email. In Redis when REDIS_URL is set,
 * so every instance behind a load balancer shares them (in memory while Redis is unreachable);
 * in memory otherwise.
 */
import fp from 'fastify-plugin';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { tooManyRequests } from '../http/errors';
import type { Clock } from '../services/clock';

export interface RateLimitStore {
  /** Counts one hit on key; returns the count in the current window and the ms left in it. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  /** Whether Redis answers right now (a Redis store only): what the readiness probe reports. */
  redisAnswers?(): Promise<boolean>;
  close(): Promise<void>;
}

/** Redis as the readiness probe reports it (docs/API.md#get-apihealthready): it never fails readiness. */
export type RedisState = 'ok' | 'down' | 'not_configured';

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts a hit on every limit and throws 429 when any is over. */
    enforceLimits(limits: Limit[]): Promise<void>;
    /** Whether the rate limits' Redis answers a PING (within the command timeout), or none is configured. */
    redisState(): Promise<RedisState>;
  }
}

export function memoryStore(clock: Clock): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    async hit(key, windowMs) {
      const now = clock().getTime();
      let entry = windows.get(key);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + windowMs };
        windows.set(key, entry);
        // Keep the map from growing without bound under a spray of distinct keys.
        if (windows.size > 50_000) {
          for (const [staleKey, stale] of windows) if (stale.resetAt <= now) windows.delete(staleKey);
        }
      }
      entry.count += 1;
      return { count: entry.count, resetInMs: entry.resetAt - now };
    },
    async close() {
      windows.clear();
    },
  };
}

/** How long the start waits for Redis before counting in memory (it keeps trying behind the scenes). */
const REDIS_CONNECT_WAIT_MS = 3_000;
/** A Redis that stops answering must not hold sign-in up: a command that takes longer fails. */
const REDIS_COMMAND_TIMEOUT_MS = 1_000;
/** After a failed command on a live connection (a stalled Redis), memory is used this long before trying again. */
const REDIS_RETRY_AFTER_FAILURE_MS = 5_000;

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

type RedisClient = import('ioredis').Redis;

async function countInRedis(redis: RedisClient, key: string, windowMs: number) {
  const results = await redis.multi().incr(key).pttl(key).exec();
  const failure = results?.find(([error]) => error)?.[0];
  if (!results || failure) throw failure ?? new Error('transaction aborted');
  const count = Number(results[0]?.[1]);
  const ttl = Number(results[1]?.[1]);
  if (ttl < 0) {
    await redis.pexpire(key, windowMs);
    return { count, resetInMs: windowMs };
  }
  return { count, resetInMs: ttl };
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
 * Counters in Redis, shared by every instance. While Redis is away (at start or later) each hit is
 * counted in this instance's memory instead, so sign-in keeps working with per-instance limits;
 * ioredis reconnects on its own and the counting moves back to Redis once it is ready again.
 */
async function redisStore(url: string, prefix: string, clock: Clock, log: FastifyBaseLogger): Promise<RateLimitStore> {
  const { Redis } = await import('ioredis');
  const fallback = memoryStore(clock);
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

  let skipUntil = 0;
  return {
    async hit(key, windowMs) {
      if (redis.status !== 'ready' || Date.now() < skipUntil) return fallback.hit(key, windowMs);
      try {
        const counted = await countInRedis(redis, `${prefix}${key}`, windowMs);
        outage.up();
        return counted;
      } catch (error) {
        skipUntil = Date.now() + REDIS_RETRY_AFTER_FAILURE_MS;
        // A command cut short by the connection dropping says little: name what happened.
        outage.down(
          redis.status !== 'ready' ? 'connection lost' : error instanceof Error ? error.message : String(error),
        );
        return fallback.hit(key, windowMs);
      }
    },
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
      await fallback.close();
    },
  };
}

export interface RateLimitOptions {
  config: Config;
  clock: Clock;
  /** Tests pass their own store (or a Redis key prefix) to stay independent of each other. */
  store?: RateLimitStore;
  redisPrefix?: string;
}

export const rateLimitPlugin = fp<RateLimitOptions>(
  async (app, { config, clock, store, redisPrefix }) => {
    const backend =
      store ??
      (config.redisUrl ? await redisStore(config.redisUrl, redisPrefix ?? 'rl:', clock, app.log) : memoryStore(clock));
    app.addHook('onClose', () => backend.close());
    app.decorate('enforceLimits', async (limits: Limit[]) => {
      let retryAfterMs = 0;
      for (const limit of limits) {
        const { count, resetInMs } = await backend.hit(limit.key, limit.windowMs);
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
