/**
 * /api/health: the probes of a load balancer or an orchestrator (docs/API.md#health-probes). No
 * sign-in, no X-Origin, no rate limit (a balancer sends none of that), never cached, and answered
 * under pressure too. Both answer in the envelope; only the status code matters to a balancer.
 */
import type { FastifyPluginAsync, FastifyRequest, RawServerDefault } from 'fastify';
import { failureEnvelope, REDIS_STATES, responseSchemas, type ErrorCode } from '../../contract/server';
import { MIGRATIONS_FOLDER } from '../db/client';
import { ApiError, notFound } from '../http/errors';
import { noStore, success } from '../http/reply';
import type { ZodMiniTypeProvider } from '../http/validation';
import type { PressureReason } from '../plugins/load-shedding';
import { checkDatabase, newestMigrationOf, type DatabaseState, type MigrationsState } from '../services/readiness';

/** A plugin whose routes get their request and response types from zod-mini schemas. */
type ZodRoutes = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodMiniTypeProvider>;

interface Readiness {
  database: DatabaseState;
  migrations: MigrationsState;
  /** A state the contract names: a state the plugin adds without it fails to compile here. */
  redis: (typeof REDIS_STATES)[number];
  /** Why calls are being turned away (plugins/load-shedding.ts), or null. */
  pressure: PressureReason | null;
  /** Why the database did not answer, for the log. */
  reason?: string;
}

export const healthRoutes: ZodRoutes = async (app) => {
  app.addHook('onSend', noStore);
  const newestMigration = await newestMigrationOf(MIGRATIONS_FOLDER);

  // GET /live: the process answers. Nothing else is looked at, so a database or Redis outage never
  // gets a healthy process restarted.
  app.get(
    '/live',
    { schema: { response: responseSchemas('GET health /live') }, config: { answersUnderPressure: true } },
    async (_request, reply) => success(reply, { status: 'live' as const }),
  );

  // Balancers probe every few seconds, each instance from several places: probes that arrive while
  // one check runs share its answer instead of queueing more queries on a struggling database.
  let running: Promise<Readiness> | null = null;
  const readiness = () => {
    running ??= (async (): Promise<Readiness> => {
      const [database, redis] = await Promise.all([checkDatabase(app.db, newestMigration), app.redisState()]);
      return { ...database, redis, pressure: app.pressure().reason };
    })().finally(() => {
      running = null;
    });
    return running;
  };

  // The log says when readiness changes, not at every probe.
  let wasReady = true;
  const report = (request: FastifyRequest, ready: boolean, state: Readiness) => {
    if (ready === wasReady) return;
    wasReady = ready;
    if (ready) request.log.info('ready again');
    else request.log.warn({ readiness: state }, 'not ready: /api/health/ready answers 503');
  };

  // GET /ready: this instance can serve. 503 names what is wrong in error.fields.
  app.get(
    '/ready',
    { schema: { response: responseSchemas('GET health /ready') }, config: { answersUnderPressure: true } },
    async (request, reply) => {
      const state = await readiness();
      const failing: Partial<Record<string, ErrorCode>> = {};
      if (state.database !== 'ok') failing.database = 'unavailable';
      else if (state.migrations !== 'ok') failing.migrations = 'unavailable';
      if (state.pressure) failing.pressure = 'unavailable';
      const ready = Object.keys(failing).length === 0;
      report(request, ready, state);
      if (!ready) throw new ApiError(503, 'other', 'unavailable', failing);
      return success(reply, {
        status: 'ready' as const,
        database: 'ok' as const,
        migrations: 'ok' as const,
        redis: state.redis,
      });
    },
  );
};

/**
 * The usual probe paths of other servers are not ours: they answer 404 in the envelope, never the
 * PWA's page with a 200 that would tell a misconfigured balancer all is well whatever the state of
 * the database (docs/API.md#health-probes).
 */
export const FOREIGN_PROBE_PATHS = ['/healthz', '/livez', '/readyz'] as const;

export const foreignProbeRoutes: ZodRoutes = async (app) => {
  for (const url of FOREIGN_PROBE_PATHS) {
    // Hidden from the OpenAPI document: no client of ours calls them.
    app.get(url, { schema: { hide: true, response: { 404: failureEnvelope } } }, async () => {
      throw notFound();
    });
  }
};
