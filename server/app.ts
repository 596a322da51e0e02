/**
 * The application as a Fastify plugin tree (fastify/demo style): each dependency is a plugin that
 * closes itself, routes are grouped by API base. `server.ts` only launches it; tests inject.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import { zodValidatorCompiler, type ZodMiniTypeProvider } from './http/validation';
import { authPlugin } from './plugins/auth';
import { databasePlugin } from './plugins/database';
import { dataDirLockPlugin } from './plugins/data-dir-lock';
import { envelopePlugin, sendClientError, sendFrameworkError } from './plugins/envelope';
import { gracefulClosePlugin } from './plugins/graceful-close';
import { keysPlugin } from './plugins/keys';
import { defaultLoadSheddingLimits, loadSheddingPlugin, type LoadSheddingLimits } from './plugins/load-shedding';
import { mailerPlugin } from './plugins/mailer';
import { openApiPlugin } from './plugins/openapi';
import { photoTrafficPlugin, type PhotoTrafficLimits } from './plugins/photo-traffic';
import { rateLimitPlugin } from './plugins/rate-limit';
import { redisPlugin } from './plugins/redis';
import { securityPlugin } from './plugins/security';
import { sessionCachePlugin } from './plugins/session-cache';
import { staticSitePlugin } from './plugins/static-site';
import { zodSerializerCompiler } from './http/serialization';
import { authRoutes } from './routes/auth';
import { foreignProbeRoutes, healthRoutes } from './routes/health';
import { imagesRoutes } from './routes/images';
import { partnerFileRoutes, partnerRoutes } from './routes/partner';
import { publicRoutes } from './routes/public';
import { systemClock, type Clock } from './services/clock';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface AppOptions {
  config: Config;
  /** An already opened database (tests); otherwise the plugin opens one from config. */
  database?: DatabaseHandle;
  clock?: Clock;
  /** Prefix of this app's Redis keys (rate limits and session states); tests give each app its own. */
  redisPrefix?: string;
  /** How long a session's state may be served from Redis (plugins/session-cache.ts); tests shorten it. */
  sessionCacheTtlMs?: number;
  distDir?: string;
  /** Where the log lines go (tests read them); stdout otherwise. */
  logStream?: { write(line: string): void };
  /** Load-shedding thresholds other than the defaults (tests set tiny ones to see the 503). */
  loadShedding?: Partial<LoadSheddingLimits>;
  /** Photo transfers' limits other than the defaults (tests set tiny ones to see the 503). */
  photoTraffic?: Partial<PhotoTrafficLimits>;
}

/** Largest request body: a repair entry or a profile is well under 1 KB. */
const BODY_LIMIT = 64 * 1024;

/** Never let these reach a log line. */
const REDACTED = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

/**
 * Fastify takes a hop count at run time but its types only name a function for it: the same rule,
 * the nearest `hops` addresses (the socket's, then the entries our proxies appended) are proxies.
 */
function trustProxyOption(trust: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      redact: { paths: REDACTED, censor: '[redacted]' },
      // Query strings can carry secrets (the reset link's token): log the path only.
      serializers: {
        req: (request: { method: string; url: string; ip?: string }) => ({
          method: request.method,
          url: request.url.split('?')[0],
          remoteAddress: request.ip,
        }),
      },
    },
    bodyLimit: BODY_LIMIT,
    // Opening a new embedded database, migrating and seeding it takes about 3 s, but far longer on a
    // busy machine: Fastify's default 10 s per plugin then aborted the start.
    pluginTimeout: 120_000,
    trustProxy: trustProxyOption(config.trustProxy),
    // The envelope plugin answers 503 itself while closing, and Node's socket-level errors.
    return503OnClosing: false,
    clientErrorHandler: sendClientError,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // Malformed URLs and over-long path parameters never reach the error handler: envelope them here.
    frameworkErrors: sendFrameworkError,
  }).withTypeProvider<ZodMiniTypeProvider>();
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler);

  // First: nothing under DATA_DIR may be touched while another process uses it.
  await app.register(dataDirLockPlugin, { config });
  await app.register(envelopePlugin);
  // Before any route: it notes each one the app registers, and serves the document describing them.
  await app.register(openApiPlugin);
  // Before the routes, so its Connection: close reaches every answer sent while closing.
  await app.register(gracefulClosePlugin);
  await app.register(loadSheddingPlugin, {
    limits: {
      ...defaultLoadSheddingLimits(),
      // The test suite runs many apps in one process, each starting an embedded database whose
      // WebAssembly holds the event loop for seconds: an app idle meanwhile would take that lag for its own.
      ...(config.nodeEnv === 'test' ? { maxEventLoopDelayMs: 0 } : {}),
      ...options.loadShedding,
    },
  });
  await app.register(securityPlugin, { config });
  await app.register(cookie);
  await app.register(databasePlugin, { config, database: options.database });
  await app.register(redisPlugin, { config });
  await app.register(sessionCachePlugin, { clock, redisPrefix: options.redisPrefix, ttlMs: options.sessionCacheTtlMs });
  await app.register(keysPlugin, { config });
  await app.register(authPlugin, { config, clock });
  await app.register(rateLimitPlugin, { redisPrefix: options.redisPrefix });
  await app.register(mailerPlugin, { config });
  await app.register(photoTrafficPlugin, { limits: options.photoTraffic });

  await app.register(authRoutes, { prefix: '/api/auth', config });
  await app.register(partnerRoutes, { prefix: '/api/partner', config });
  await app.register(partnerFileRoutes, { prefix: '/api/partner', config });
  await app.register(publicRoutes, { prefix: '/api/public', config });
  await app.register(imagesRoutes, { prefix: '/api/images', config });
  await app.register(healthRoutes, { prefix: '/api/health' });
  await app.register(foreignProbeRoutes);
  await app.register(staticSitePlugin, {
    distDir: options.distDir ?? config.distDir ?? path.join(ROOT_DIR, 'dist'),
  });
  return app;
}
