/**
 * Opens the database: the embedded PGlite under DATA_DIR by default, or a PostgreSQL server
 * when a URL is given. Both run the same schema and migrations and expose one Drizzle type.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { dataDirError, ensureDirectory } from '../services/data-dir';
import { shortReason, StartupError } from '../startup-error';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Applies pending migrations; safe to call from several instances at once on PostgreSQL. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any constant will do: it only has to be the same for every instance of this service. */
const MIGRATION_LOCK_ID = 728_361_904;

export interface OpenOptions {
  /** postgres:// URL; null for PGlite. */
  databaseUrl: string | null;
  /** PGlite data directory, or 'memory://' for a throwaway database. */
  pgliteDir: string;
  /**
   * A throwaway database's starting content, from PGlite's dumpDataDir: the test suite makes one
   * migrated database per run and starts each test file's from it (creating one takes seconds).
   */
  pgliteDump?: Blob;
  poolSize?: number;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : openPglite(options.pgliteDir, options.pgliteDump);
}

async function openPglite(dir: string, dump: Blob | undefined): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = dir.startsWith('memory://')
    ? await PGlite.create(dir, { loadDataDir: dump })
    : await openPgliteDir(PGlite, dir);
  const db = drizzle(client, { schema });
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
  };
}

/**
 * PGlite on a folder (DATA_DIR/pglite). What goes wrong there (a full disk, a file where the folder
 * should be) surfaces from deep inside PGlite's own code: say it in one line naming DATA_DIR.
 */
async function openPgliteDir(
  PGlite: typeof import('@electric-sql/pglite').PGlite,
  dir: string,
): Promise<import('@electric-sql/pglite').PGlite> {
  const dataDir = path.dirname(dir);
  try {
    await ensureDirectory(dataDir);
  } catch (error) {
    throw dataDirError(dataDir, error);
  }
  try {
    return await PGlite.create(dir);
  } catch (error) {
    throw new StartupError(
      `DATA_DIR ${dataDir}: the embedded database in ${dir} cannot be opened (${shortReason(error)}): check that it is a folder this user can write, with enough free space, or set DATA_DIR to another folder`,
    );
  }
}

/** What keeps the portal from using PostgreSQL, in one line naming DATABASE_URL (never its password). */
function postgresStartupError(url: string, error: unknown): StartupError {
  const { hostname, port, pathname, username } = new URL(url);
  const server = `PostgreSQL at ${hostname}:${port || '5432'}`;
  const database = decodeURIComponent(pathname.slice(1));
  const { code } = (error ?? {}) as { code?: string };
  if (code === '3D000') {
    return new StartupError(
      `DATABASE_URL names the database "${database}", which does not exist on ${server}: create it (createdb ${database}) or correct DATABASE_URL`,
    );
  }
  if (code === '28P01' || code === '28000') {
    return new StartupError(
      `${server} refused the user "${decodeURIComponent(username)}" (${shortReason(error)}): correct the user or password in DATABASE_URL`,
    );
  }
  if (code && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT'].includes(code)) {
    return new StartupError(
      `${server} is unreachable (${code}): start it, or correct the host and port in DATABASE_URL`,
    );
  }
  return new StartupError(
    `${server}, database "${database}", cannot be used (${shortReason(error)}): check DATABASE_URL`,
  );
}

/** Waits for a connection beyond which the server is taken to be unreachable. */
const POSTGRES_CONNECT_TIMEOUT_MS = 10_000;

async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
  });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Connect once now, so a wrong DATABASE_URL stops the start instead of failing every request.
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw postgresStartupError(url, error);
  }
  const db = drizzle(pool, { schema });
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    async migrate() {
      // Several instances may start together: one migrates while the others wait on the lock.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
