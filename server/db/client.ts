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
  /**
   * The same database, for moving a photo's bytes: on PGlite its statements wait until no other is
   * waiting; on PostgreSQL they run on connections of their own (BULK_POOL_SIZE), so a flood of photo
   * transfers never takes the connections every other call needs.
   */
  bulk: Database;
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
  const line = lineForPglite(client);
  const db = drizzle(line.first, { schema });
  return {
    db: db as unknown as Database,
    bulk: drizzle(line.bulk, { schema }) as unknown as Database,
    kind: 'pglite',
    migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
  };
}

/** The PGlite methods that run SQL: each call waits for its turn in the line. */
const QUERYING_METHODS = new Set<PropertyKey>(['query', 'exec', 'sql', 'transaction']);

type Lane = 'first' | 'bulk';

/**
 * One line for every statement sent to an embedded PGlite, with two lanes. PGlite runs each statement
 * on the event loop (its WebAssembly), and hands its own line of waiting calls on from one to the next
 * in microtasks: 200 calls waiting on it ran back to back, and the process answered nothing else (a
 * socket, a timer, the health probe) until the last was done, for seconds under a flood of photo reads
 * (docs/API.md#photo-traffic). Here each call starts in a turn of the event loop of its own
 * (setImmediate), so whatever else is ready runs between any two statements; and a call in the bulk
 * lane (a photo's bytes) goes only when no other call waits, so a garage's lookup waits for at most
 * the one statement running. Each lane keeps its order, and PGlite runs one call at a time anyway;
 * inside a transaction the statements go to PGlite directly, as the transaction holds the line.
 */
export function lineForPglite<T extends object>(client: T): Record<Lane, T> {
  const waiting: Record<Lane, Array<() => Promise<void>>> = { first: [], bulk: [] };
  let running = false;
  const runNext = () => {
    const call = waiting.first.shift() ?? waiting.bulk.shift();
    running = call !== undefined;
    if (call) setImmediate(() => void call().finally(runNext));
  };
  const inTurn = <R>(lane: Lane, run: () => Promise<R>): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      waiting[lane].push(() => run().then(resolve, reject));
      if (!running) runNext();
    });
  const laneOf = (lane: Lane): T =>
    new Proxy(client, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => unknown;
        if (!QUERYING_METHODS.has(property)) return method.bind(target);
        return (...args: unknown[]) => inTurn(lane, async () => method.apply(target, args));
      },
    });
  return { first: laneOf('first'), bulk: laneOf('bulk') };
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

/**
 * Connections for photo bytes (DatabaseHandle.bulk), besides the main pool: as many as the photo reads
 * and uploads that may run at once (plugins/photo-traffic.ts), so their turn never waits for a connection.
 */
const BULK_POOL_SIZE = 10;

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
  // Opened on first use: a process that moves no photo holds no connection for it.
  const bulkPool = new pg.Pool({
    connectionString: url,
    max: BULK_POOL_SIZE,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
  });
  bulkPool.on('error', () => undefined);
  return {
    db: db as unknown as Database,
    bulk: drizzle(bulkPool, { schema }) as unknown as Database,
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
    close: async () => {
      await Promise.all([pool.end(), bulkPool.end()]);
    },
  };
}
