/**
 * Fixed-window counters for the auth routes, per IP and per email. In Redis when REDIS_URL is set,
 * so every instance behind a load balancer shares them; in memory otherwise.
 */
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { tooManyRequests } from '../http/errors';
import type { Clock } from '../services/clock';

export interface RateLimitStore {
  /** Counts one hit on key; returns the count in the current window and the ms left in it. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  close(): Promise<void>;
}

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts a hit on every limit and throws 429 when any is over. */
    enforceLimits(limits: Limit[]): Promise<void>;
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

async function redisStore(url: string, prefix: string): Promise<RateLimitStore> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  return {
    async hit(key, windowMs) {
      const fullKey = `${prefix}${key}`;
      const [[, count], [, ttl]] = (await redis.multi().incr(fullKey).pttl(fullKey).exec()) as [
        [null, number],
        [null, number],
      ];
      if (ttl < 0) {
        await redis.pexpire(fullKey, windowMs);
        return { count, resetInMs: windowMs };
      }
      return { count, resetInMs: ttl };
    },
    async close() {
      await redis.quit();
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
      store ?? (config.redisUrl ? await redisStore(config.redisUrl, redisPrefix ?? 'rl:') : memoryStore(clock));
    app.addHook('onClose', () => backend.close());
    app.decorate('enforceLimits', async (limits: Limit[]) => {
      let retryAfterMs = 0;
      for (const limit of limits) {
        const { count, resetInMs } = await backend.hit(limit.key, limit.windowMs);
        if (count > limit.max) retryAfterMs = Math.max(retryAfterMs, resetInMs);
      }
      if (retryAfterMs > 0) throw tooManyRequests(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    });
  },
  { name: 'rate-limit' },
);
