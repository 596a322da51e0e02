/**
 * One app per test file on the database the project runs the suite on: TEST_DB=pglite (an
 * in-memory PGlite, started from the run's migrated one: see pglite-template.ts) or
 * TEST_DB=postgres (a fresh database on the PostgreSQL server, dropped after).
 * The clock is controllable so expiry can be tested without waiting.
 */
import type { PhotoTrafficLimits } from '../../server/plugins/photo-traffic';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { migratedPgliteDump } from './pglite-template';

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_ORIGIN = 'http://localhost:8080';

export interface TestClock {
  now(): Date;
  advance(ms: number): void;
  reset(): void;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  clock: TestClock;
  dataDir: string;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

function makeClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
    reset: () => {
      offset = 0;
    },
  };
}

export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface TestAppOptions {
  /**
   * REDIS_URL in env counts rate limits in Redis rather than this process's memory. Either way they
   * run on the real clock, not the test clock: a test moves past a window with fake timers.
   */
  env?: Record<string, string>;
  /** Redis key prefix; two apps given the same one share their limits like two instances. */
  redisPrefix?: string;
  /** A built PWA to serve; by default none, so only the API answers. */
  distDir?: string;
  /** Receives the log lines (set LOG_LEVEL in env: tests log nothing by default). */
  logStream?: { write(line: string): void };
  /**
   * Another instance on the database of this one, as two servers behind one balancer: its own pool on
   * the same PostgreSQL database, or the same embedded database (PGlite is one process's).
   */
  sameDatabaseAs?: TestApp;
  /** How long a session's state may be served from Redis (server/plugins/session-cache.ts). */
  sessionCacheTtlMs?: number;
  /** Limits of photo transfers (server/plugins/photo-traffic.ts); tests set tiny ones to see the 503. */
  photoTraffic?: Partial<PhotoTrafficLimits>;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const kind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-test-'));
  const shared = options.sameDatabaseAs?.config.databaseUrl ?? null;
  const postgres = kind === 'postgres' && !shared ? await createPostgresDatabase() : null;
  const databaseUrl = shared ?? postgres?.url;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_URL: TEST_ORIGIN,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  });
  // The embedded database of the app this one shares it with, left for that app to close.
  const sharedPglite = options.sameDatabaseAs && !shared ? options.sameDatabaseAs.app.database : null;
  const database: DatabaseHandle =
    sharedPglite ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: 'memory://',
      pgliteDump: await migratedPgliteDump(),
      poolSize: 4,
    }));
  const clock = makeClock();
  const app = await buildApp({
    config,
    database,
    clock: clock.now,
    redisPrefix: options.redisPrefix ?? `rl:test:${crypto.randomBytes(4).toString('hex')}:`,
    distDir: options.distDir ?? path.join(dataDir, 'no-dist'),
    logStream: options.logStream,
    sessionCacheTtlMs: options.sessionCacheTtlMs,
    photoTraffic: options.photoTraffic,
  });
  await app.ready();
  return {
    app,
    config,
    clock,
    dataDir,
    kind,
    async close() {
      await app.close();
      if (!sharedPglite) await database.close();
      await postgres?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** app.inject with JSON in and out, the page origin header and an optional bearer token. */
export async function call(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; cookies?: Record<string, string> } = {},
): Promise<LightMyRequestResponse & { json<T = Record<string, unknown>>(): T }> {
  const headers: Record<string, string> = { 'x-origin': TEST_ORIGIN, ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return app.inject({
    method,
    url,
    headers,
    cookies: options.cookies,
    ...(options.body === undefined ? {} : { payload: options.body as InjectOptions['payload'] }),
  }) as Promise<LightMyRequestResponse & { json<T = Record<string, unknown>>(): T }>;
}
