/**
 * The probes a load balancer or an orchestrator uses (docs/API.md#health-probes): live says the
 * process answers, without touching the database; ready says the database answers within a second
 * with every migration applied, and reports Redis without depending on it. Both answer in the
 * envelope, with no origin header, token or rate limit, and the load shedding that turns other calls
 * away with 503 leaves live answering. Probe-like paths never get the PWA's page.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiFailure, ApiSuccess } from '../../contract';
import { buildApp, type AppOptions } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { freePort } from '../e2e/support/server';
import { migratedPgliteDump } from '../support/pglite-template';
import { createTestRedis, type TestRedis } from '../support/redis-server';
import { createPostgresDatabase, TEST_ORIGIN } from '../support/test-app';

const onPostgres = process.env.TEST_DB === 'postgres';

interface ProbeApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** Drops the PostgreSQL database under the running app (PostgreSQL runs only). */
  dropDatabase(): Promise<void>;
  /** Closes the database under the running app, as a crashed or closed client would leave it. */
  closeDatabase(): Promise<void>;
  close(): Promise<void>;
}

/**
 * An app on its own database (rate limits in Redis when env has REDIS_URL, in memory otherwise) (a throwaway PGlite, or a fresh database on the PostgreSQL server),
 * built here rather than by tests/support/test-app.ts because these tests close or drop the
 * database under it and pass it options of the app factory (load-shedding thresholds).
 */
async function probeApp(
  options: { env?: Record<string, string> } & Partial<Omit<AppOptions, 'config' | 'database'>> = {},
): Promise<ProbeApp> {
  const { env, ...appOptions } = options;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-health-'));
  const postgres = onPostgres ? await createPostgresDatabase() : null;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_URL: TEST_ORIGIN,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...env,
  });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: 'memory://',
    pgliteDump: await migratedPgliteDump(),
    poolSize: 2,
  });
  const app = await buildApp({
    config,
    database,
    redisPrefix: `rl:health:${crypto.randomBytes(4).toString('hex')}:`,
    distDir: path.join(dataDir, 'no-dist'),
    ...appOptions,
  });
  await app.ready();
  let databaseClosed = false;
  const closeDatabase = async () => {
    if (databaseClosed) return;
    databaseClosed = true;
    await database.close();
  };
  return {
    app,
    database,
    closeDatabase,
    async dropDatabase() {
      if (!postgres) throw new Error('only on PostgreSQL');
      await postgres.drop();
    },
    async close() {
      await app.close();
      await closeDatabase();
      await postgres?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** What a load balancer sends: no X-Origin, no token, no cookie. */
const probe = (app: FastifyInstance, url: string, method: 'GET' | 'HEAD' = 'GET') =>
  app.inject({ method, url, headers: { 'user-agent': 'ELB-HealthChecker/2.0' } });

function expectUnavailable(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(503);
  const body = response.json<ApiFailure>();
  expect(body).toMatchObject({ code: 503, status: 'error', error: { type: 'other', reason: 'unavailable' } });
  return body;
}

interface ReadyReport {
  status: string;
  database: string;
  migrations: string;
  redis: string;
}

/**
 * One app serves the healthy answers, the probe paths beside the PWA, then (last, in this order)
 * its migrations record tampered with and its database closed: each app migrates and seeds its own
 * database, which takes seconds on a loaded machine.
 */
describe('one app, healthy then broken', () => {
  let probed: ProbeApp;
  let distDir: string;
  beforeAll(async () => {
    distDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dist-health-'));
    await fs.writeFile(path.join(distDir, 'index.html'), '<!doctype html><title>Portail</title>');
    probed = await probeApp({ distDir });
  });
  afterAll(async () => {
    await probed.close();
    await fs.rm(distDir, { recursive: true, force: true });
  });

  it('live answers 200 in the envelope, tiny and never cached, to a caller with no origin header or token', async () => {
    const response = await probe(probed.app, '/api/health/live');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ code: 200, status: 'success', data: { status: 'live' } });
    expect(response.body.length).toBeLessThan(100);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect((await probe(probed.app, '/api/health/live', 'HEAD')).statusCode).toBe(200);
  });

  it('ready answers 200, reporting the database, the migrations and Redis not configured', async () => {
    const response = await probe(probed.app, '/api/health/ready');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ApiSuccess<ReadyReport>>()).toEqual({
      code: 200,
      status: 'success',
      data: { status: 'ready', database: 'ok', migrations: 'ok', redis: 'not_configured' },
    });
    expect(response.headers['cache-control']).toBe('no-store');
    // Asked again and again, as a balancer does every few seconds: never a rate limit.
    for (let attempt = 0; attempt < 60; attempt += 1) {
      expect((await probe(probed.app, '/api/health/ready')).statusCode).toBe(200);
    }
  });

  it.each(['/healthz', '/livez', '/readyz', '/api/health', '/api/health/', '/api/health/nope', '/api/healthz'])(
    '%s answers 404 in the envelope, never the PWA page',
    async (url) => {
      const response = await probe(probed.app, url);
      expect(response.statusCode, response.body).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toMatchObject({ code: 404, status: 'error', error: { reason: 'not_found' } });
    },
  );

  it('still serves the PWA on its own routes', async () => {
    const response = await probe(probed.app, '/login');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
  });

  it('ready answers 503 naming the database within about a second when the database does not answer', async () => {
    // A transaction holds drizzle's table: the readiness query waits behind it (on PGlite, behind the
    // transaction itself, which holds the one connection).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holding = probed.app.db.transaction(async (tx) => {
      await tx.execute(sql`lock table drizzle.__drizzle_migrations in access exclusive mode`);
      locked();
      await held;
    });
    // Probed only once the lock is held: on PostgreSQL the probe has a connection of its own, and a
    // probe sent first was answered before the lock came (seen once under load).
    await lockTaken;
    try {
      const asked = Date.now();
      const body = expectUnavailable(await probe(probed.app, '/api/health/ready'));
      expect(body.error.fields).toHaveProperty('database');
      expect(Date.now() - asked).toBeGreaterThanOrEqual(900);
      expect(Date.now() - asked).toBeLessThan(5_000);
    } finally {
      release();
      await holding;
    }
    expect((await probe(probed.app, '/api/health/ready')).statusCode).toBe(200);
  });

  it('ready answers 503 naming the migrations when the newest migration is not recorded as applied', async () => {
    await probed.app.db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
    );
    const body = expectUnavailable(await probe(probed.app, '/api/health/ready'));
    expect(body.error.fields).toHaveProperty('migrations');
    expect(body.error.fields).not.toHaveProperty('database');
  });

  it('ready answers 503 naming the migrations on a database never migrated', async () => {
    await probed.app.db.execute(sql`drop schema drizzle cascade`);
    const body = expectUnavailable(await probe(probed.app, '/api/health/ready'));
    expect(body.error.fields).toHaveProperty('migrations');
    expect(body.error.fields).not.toHaveProperty('database');
  });

  it('with the database client closed, ready answers 503 naming the database and live still 200', async () => {
    await probed.closeDatabase();
    const body = expectUnavailable(await probe(probed.app, '/api/health/ready'));
    expect(body.error.fields).toHaveProperty('database');
    // Live never touches the database.
    expect((await probe(probed.app, '/api/health/live')).statusCode).toBe(200);
  });
});

describe('GET /api/health/ready on other apps', () => {
  const opened: ProbeApp[] = [];
  afterAll(async () => {
    for (const probed of opened) await probed.close();
  });
  async function open(options: Parameters<typeof probeApp>[0] = {}) {
    const probed = await probeApp(options);
    opened.push(probed);
    return probed;
  }

  it.runIf(onPostgres)('answers 503 once its PostgreSQL database has been dropped', async () => {
    const probed = await open();
    expect((await probe(probed.app, '/api/health/ready')).statusCode).toBe(200);
    await probed.dropDatabase();
    const body = expectUnavailable(await probe(probed.app, '/api/health/ready'));
    expect(body.error.fields).toHaveProperty('database');
  });

  it("reports Redis 'down' and stays ready (200) when REDIS_URL points to a closed port", async () => {
    const { app } = await open({ env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` } });
    const response = await probe(app, '/api/health/ready');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ApiSuccess<ReadyReport>>().data).toEqual({
      status: 'ready',
      database: 'ok',
      migrations: 'ok',
      redis: 'down',
    });
  });

  describe('with Redis running', () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await createTestRedis();
      await redis.start();
    });
    afterAll(() => redis.stop());

    it("reports Redis 'ok'", async () => {
      const { app } = await open({ env: { REDIS_URL: redis.url } });
      const response = await probe(app, '/api/health/ready');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<ApiSuccess<ReadyReport>>().data.redis).toBe('ok');
    });
  });
});

/** Holds the event loop, as a long synchronous stretch of work (or a starved process) does. */
function stall(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: nothing else runs meanwhile
  }
}

/** How often the event-loop tests' app samples the loop. */
const SAMPLE_MS = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('load shedding on the heap', () => {
  let probed: ProbeApp;
  beforeAll(async () => {
    // Any heap at all is "too much": the app is under pressure from its first sample on.
    probed = await probeApp({ loadShedding: { maxHeapUsedBytes: 1, sampleIntervalMs: 10 } });
  });
  afterAll(() => probed.close());

  it('answers other calls 503 in the envelope with Retry-After, while live keeps answering 200', async () => {
    const call = () =>
      probed.app.inject({ method: 'GET', url: '/api/public/client-config', headers: { 'x-origin': TEST_ORIGIN } });
    await vi.waitFor(async () => expect((await call()).statusCode).toBe(503), { timeout: 5_000, interval: 20 });
    const shed = await call();
    expectUnavailable(shed);
    expect(Number(shed.headers['retry-after'])).toBeGreaterThan(0);

    expect((await probe(probed.app, '/api/health/live')).statusCode).toBe(200);
    // Ready says why, so the balancer sends this instance's share elsewhere for a while.
    const ready = expectUnavailable(await probe(probed.app, '/api/health/ready'));
    expect(ready.error.fields).toHaveProperty('pressure');
  });
});

describe('load shedding on the event loop', () => {
  let probed: ProbeApp;
  beforeAll(async () => {
    probed = await probeApp({ loadShedding: { maxEventLoopDelayMs: 50, sampleIntervalMs: SAMPLE_MS } });
    // Starting the embedded database held the loop too: wait until the samples say it is free again.
    await vi.waitFor(() => expect(probed.app.pressure().underPressure).toBe(false), { timeout: 10_000 });
  });
  afterAll(() => probed.close());

  const call = () => probed.app.inject({ method: 'GET', url: '/api/public/client-config' });

  it('lets calls through after a lone stall: one late sample is not overload', async () => {
    // A few free samples first, so no lag from before counts.
    await sleep(5 * SAMPLE_MS);
    // Ten samples long: whenever it starts, the sample that holds it is far over the limit.
    stall(10 * SAMPLE_MS);
    const seen: boolean[] = [];
    for (const until = Date.now() + 3 * SAMPLE_MS; Date.now() < until;) {
      seen.push(probed.app.pressure().underPressure);
      await sleep(10);
    }
    expect(seen).not.toContain(true);
    expect((await call()).statusCode).toBe(200);
  });

  it('turns calls away with 503 once the loop has lagged sample after sample, and answers again after', async () => {
    let shed = null;
    for (let attempt = 0; attempt < 30 && !shed; attempt += 1) {
      stall(2 * SAMPLE_MS);
      // Back to the loop, but not for long: its next round of timers takes the sample of this stall,
      // and the next stall begins at once, as on a process that never catches up.
      await nextTurn();
      const response = await call();
      if (response.statusCode === 503) shed = response;
      else expect(response.statusCode).toBe(200);
    }
    expect(shed, 'never turned away').not.toBeNull();
    expectUnavailable(shed!);
    expect(shed!.headers['retry-after']).toBe('10');
    expect((await probe(probed.app, '/api/health/live')).statusCode).toBe(200);

    await vi.waitFor(async () => expect((await call()).statusCode).toBe(200), { timeout: 5_000, interval: 50 });
  });
});
