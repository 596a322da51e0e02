/**
 * The portal as the benchmarks run it: the real server (`node --import tsx server/server.ts`, the
 * built PWA from dist/) on a fresh embedded PGlite or on a fresh database of the PostgreSQL server,
 * the local map stubs for tiles and geocoder, and the API calls the benchmarks make from Node.
 * Loopback only.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { DEMO_PARTNER, startPortal, type Portal } from '../../tests/e2e/support/server';
import { startMapStubs, type MapStubs } from '../../tests/e2e/support/stubs';
import { PROJECT_ROOT } from '../../tests/e2e/support/paths';

export { DEMO_PARTNER };

export const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type DatabaseKind = 'pglite' | 'postgres';

export interface BenchPortal {
  url: string;
  database: DatabaseKind;
  portal: Portal;
  stop(): Promise<void>;
}

export interface PostgresDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A database of its own on the PostgreSQL server, dropped by drop(). */
export async function createPostgresDatabase(prefix = 'bench'): Promise<PostgresDatabase> {
  const name = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

/**
 * Starts stubs, a database and the portal; stop() takes all three down. `distDir` serves another
 * build of the PWA (the previous commit's, for comparison) instead of dist/.
 */
export async function startBenchPortal(
  database: DatabaseKind = 'pglite',
  options: { distDir?: string } = {},
): Promise<BenchPortal> {
  const stubs: MapStubs = await startMapStubs();
  let postgres: PostgresDatabase | null = null;
  try {
    postgres = database === 'postgres' ? await createPostgresDatabase() : null;
    const portal = await startPortal({
      tileUrl: stubs.tileUrl,
      geocoderUrl: stubs.geocoderUrl,
      env: {
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
        ...(options.distDir ? { DIST_DIR: options.distDir } : {}),
      },
    });
    return {
      url: portal.url,
      database,
      portal,
      async stop() {
        await portal.stop();
        await postgres?.drop();
        await stubs.close();
      },
    };
  } catch (error) {
    await postgres?.drop().catch(() => undefined);
    await stubs.close();
    throw error;
  }
}

export interface ApiSession {
  accessToken: string;
  userId: string;
  /** The refresh cookie's value, for a browser context that starts signed in. */
  refreshToken: string;
}

/** POST /api/auth/login with remember_me, as the PWA does. */
export async function apiLogin(baseUrl: string, account: { email: string; password: string }): Promise<ApiSession> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-origin': baseUrl },
    body: JSON.stringify({ email: account.email, password: account.password, remember_me: true }),
  });
  const body = (await response.json()) as { data?: { access_token?: string; user?: { id?: string } } };
  const cookie = response.headers
    .getSetCookie()
    .map((line) => /^refresh_token=([^;]+)/.exec(line)?.[1])
    .find((value) => value !== undefined);
  const accessToken = body.data?.access_token;
  const userId = body.data?.user?.id;
  if (response.status !== 200 || !accessToken || !userId || !cookie) {
    throw new Error(`login ${account.email}: ${response.status} ${JSON.stringify(body)}`);
  }
  return { accessToken, userId, refreshToken: cookie };
}

let registered = 0;

/** A new partner through the API (the server allows 5 registrations per IP and hour). */
export async function registerPartner(baseUrl: string, tag: string): Promise<{ email: string; password: string }> {
  registered += 1;
  const unique = `${Date.now().toString(36)}${registered}`;
  const account = { email: `${tag}-${unique}@bench.test`, password: `bench-password-${unique}` };
  const response = await fetch(`${baseUrl}/api/auth/register/partner`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-origin': baseUrl },
    body: JSON.stringify({
      ...account,
      full_name: `Garage ${tag} ${registered}`,
      phone_number: '0555123456',
      location: { latitude: 36.7213, longitude: 3.1444 },
      privacy_conditions: true,
    }),
  });
  if (response.status !== 201)
    throw new Error(`register ${account.email}: ${response.status} ${await response.text()}`);
  return account;
}

function authHeaders(baseUrl: string, session: ApiSession): Record<string, string> {
  return { authorization: `Bearer ${session.accessToken}`, 'x-origin': baseUrl, accept: 'application/json' };
}

export async function repairsTotal(baseUrl: string, session: ApiSession): Promise<number> {
  const response = await fetch(`${baseUrl}/api/partner/statistics`, { headers: authHeaders(baseUrl, session) });
  const body = (await response.json()) as { data?: { repairs_total?: number } };
  if (response.status !== 200 || typeof body.data?.repairs_total !== 'number') {
    throw new Error(`GET /statistics: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.data.repairs_total;
}

export interface StoredRepair {
  id: string;
  vehicle: { kode_id: string };
  odometer: number;
  recorded_at: string;
  created_at: string;
}

/** Every repair the server holds for the partner, newest first (paged through GET /repairs). */
export async function allRepairs(baseUrl: string, session: ApiSession): Promise<StoredRepair[]> {
  const all: StoredRepair[] = [];
  let before: string | null = null;
  for (;;) {
    const query: string = before ? `?limit=500&before=${encodeURIComponent(before)}` : '?limit=500';
    const response = await fetch(`${baseUrl}/api/partner/repairs${query}`, { headers: authHeaders(baseUrl, session) });
    const body = (await response.json()) as { data?: StoredRepair[] };
    if (response.status !== 200 || !body.data) throw new Error(`GET /repairs: ${response.status}`);
    all.push(...body.data);
    if (body.data.length < 500) return all;
    before = body.data.at(-1)!.recorded_at;
  }
}

/** One POST /repairs with a fresh Idempotency-Key; the stored repair's id. */
export async function postRepair(
  baseUrl: string,
  session: ApiSession,
  body: { kode_id: string; repair_type_id: string; odometer: number; recorded_at: string },
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/partner/repairs`, {
    method: 'POST',
    headers: {
      ...authHeaders(baseUrl, session),
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify({ ...body, note: '', consented: true }),
  });
  const text = await response.text();
  const id = response.status === 201 ? (JSON.parse(text) as { data?: { id?: string } }).data?.id : undefined;
  if (!id) throw new Error(`POST /repairs: ${response.status} ${text}`);
  return id;
}

/** The kode_ids of the demo vehicles the server seeds (server/seed/vehicles.csv, 60 of them). */
export function demoKodeIds(): string[] {
  const csv = fs.readFileSync(path.join(PROJECT_ROOT, 'server', 'seed', 'vehicles.csv'), 'utf8');
  return csv
    .split(/\r?\n/)
    .slice(1)
    .map((line) => line.split(',')[0]?.trim() ?? '')
    .filter((id) => id.length === 10);
}

/** The demo repair types' ids (server/seed/repair-types.csv). */
export function demoRepairTypeIds(): string[] {
  const csv = fs.readFileSync(path.join(PROJECT_ROOT, 'server', 'seed', 'repair-types.csv'), 'utf8');
  return csv
    .split(/\r?\n/)
    .slice(1)
    .map((line) => line.split(',')[0]?.trim() ?? '')
    .filter(Boolean);
}
