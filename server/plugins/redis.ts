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
  /**
   * Whether to send Redis commands now: the connection is up, and Redis answered since its last failed
   * command. Commands fail at once while the connection is down (no offline queue); a Redis connected
   * but hung is skipped after its first timeout, until a probe's PING is answered (a circuit breaker).
   */
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
/** While a connected Redis is skipped, how often a PING asks whether it answers again. */
const REDIS_PROBE_INTERVAL_MS = 1_000;

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
  const breaker = circuitBreaker(client, outage);
  return {
    client,
    ready: () => client.status === 'ready' && !breaker.open(),
    down(reason) {
      outage.down(reason);
      // Connected, yet a command failed (a timeout: Redis hung, or too slow to count on): skip it.
      if (client.status === 'ready') breaker.trip();
    },
  };
}

/**
 * Skips a Redis that is connected but does not answer (stopped by SIGSTOP, swapping, stuck in a slow
 * command): without it every call waited for the command timeout, 1 s on each partner call and more
 * on a sign-in, for as long as Redis hung. After one failed command no other is sent; a PING every
 * second asks whether it answers again, and the first answer closes the circuit. A lost connection
 * needs none of this: commands fail at once while ioredis reconnects.
 */
function circuitBreaker(client: RedisClient, outage: { up(): void }) {
  let probe: NodeJS.Timeout | null = null;
  const stopProbing = () => {
    if (probe) clearInterval(probe);
    probe = null;
  };
  // A new connection has answered ioredis's own check: nothing is hung any more.
  client.on('ready', stopProbing);
  client.on('end', stopProbing);
  const close = () => {
    stopProbing();
    outage.up();
  };
  return {
    open: () => probe !== null,
    trip() {
      if (probe) return;
      probe = setInterval(() => {
        if (client.status !== 'ready') return;
        client.ping().then(close, () => undefined);
      }, REDIS_PROBE_INTERVAL_MS);
      probe.unref();
    },
  };
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
