/**
 * The instance's one Redis connection when REDIS_URL is set, shared by the rate limits' counters
 * (plugins/rate-limit.ts) and the session check's cache (plugins/session-cache.ts). Redis is never
 * needed to serve: while it is away (at start or later) the limits are counted in this instance's
 * memory and sessions are checked in the database. One warning is logged when it goes and one line
 * when it is back, whichever of the two noticed; ioredis reconnects on its own.
 */
import fp from 'fastify-plugin';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis as RedisClient } from 'ioredis';
import type { Config } from '../config';

export interface SharedRedis {
  client: RedisClient;
  /** Whether the connection is up; commands fail at once while it is not (no offline queue). */
  ready(): boolean;
  /** Notes that Redis failed a command or is not connected: logged once until it is back. */
  down(reason: string): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis connection, or null without REDIS_URL. */
    redis: SharedRedis | null;
  }
}

/** How long the start waits for Redis before going on without it (it keeps trying behind the scenes). */
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
 * request served without it meanwhile.
 */
function outageReporter(log: FastifyBaseLogger, address: string) {
  let reachable = true;
  return {
    down(reason: string) {
      if (!reachable) return;
      reachable = false;
      log.warn(
        `Redis at ${address} unreachable (${reason}): rate limits are counted in this instance's memory, and sessions checked in the database, until it is back`,
      );
    },
    up() {
      if (reachable) return;
      reachable = true;
      log.warn(`Redis at ${address} is back: rate limits are counted, and sessions cached, in Redis again`);
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

async function connect(url: string, log: FastifyBaseLogger): Promise<SharedRedis> {
  const { Redis } = await import('ioredis');
  const outage = outageReporter(log, redisAddress(url));
  const client = new Redis(url, {
    // Fail at once while disconnected, rather than queue commands until Redis returns.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Listening to errors also keeps ioredis from printing "Unhandled error event" on each retry.
  client.on('error', (error: Error) => outage.down(error.message));
  client.on('close', () => outage.down('connection closed'));
  client.on('ready', () => outage.up());
  await firstConnection(client);
  return { client, ready: () => client.status === 'ready', down: (reason) => outage.down(reason) };
}

export const redisPlugin = fp<{ config: Pick<Config, 'redisUrl'> }>(
  async (app, { config }) => {
    const redis = config.redisUrl ? await connect(config.redisUrl, app.log) : null;
    if (redis) {
      app.addHook('onClose', async () => {
        redis.client.disconnect();
      });
    }
    app.decorate('redis', redis);
  },
  { name: 'redis' },
);
