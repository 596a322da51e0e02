/** What the command-line tools share: their output streams, opening the configured database, and the entry check. */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { ConfigError, loadConfig, type Config } from '../config';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { lockDataDir, type DataDirLock } from '../db/data-dir-lock';

export interface CliIo {
  env: Record<string, string | undefined>;
  /** Where relative paths are resolved: the directory the user ran `npm run` from. */
  cwd: string;
  out: (line: string) => void;
  err: (line: string) => void;
}

export function processIo(): CliIo {
  return {
    env: process.env,
    // npm runs scripts from the package root; INIT_CWD is where the user typed the command.
    cwd: process.env.INIT_CWD ?? process.cwd(),
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  };
}

/** The configuration from the environment, or null after printing why it is wrong. */
export function loadCliConfig(io: CliIo): Config | null {
  try {
    return loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`Configuration error: ${error.message}`);
      return null;
    }
    throw error;
  }
}

/** Where the embedded database lives: DATA_DIR/pglite. */
export function embeddedDatabaseDir(config: Config): string {
  return path.join(config.dataDir, 'pglite');
}

/** The database the server would use: PostgreSQL at DATABASE_URL, or PGlite under DATA_DIR/pglite. */
function openConfiguredDatabase(config: Config): Promise<DatabaseHandle> {
  return openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: embeddedDatabaseDir(config), poolSize: 2 });
}

export function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `PGlite at ${embeddedDatabaseDir(config)}`;
  const url = new URL(config.databaseUrl);
  // Never print a password.
  return `PostgreSQL at ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Long enough for any PostgreSQL message naming a constraint, a column and a type. */
const DATABASE_REASON_MAX_LENGTH = 300;

/**
 * Why a database operation failed, in one short line. Drizzle's query errors quote the whole statement
 * and its parameters (a batch of 500 rows of the user's data): only the database's own message is kept.
 */
export function databaseErrorMessage(error: unknown): string {
  const reason = error instanceof DrizzleQueryError && error.cause ? errorMessage(error.cause) : errorMessage(error);
  const line = reason.split('\n')[0] ?? '';
  return line.length > DATABASE_REASON_MAX_LENGTH ? `${line.slice(0, DATABASE_REASON_MAX_LENGTH)}…` : line;
}

/** True when this module is the script node was started with (not imported by a test). */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && pathToFileURL(path.resolve(script)).href === moduleUrl;
}

/**
 * Opens the configured database, applies pending migrations, then runs `work` on it; closes it
 * whatever happens. Any error is printed as "<action> failed (<database>): <why>" and gives exit 2.
 * The embedded database is locked first, so a command refuses to run while a server uses it.
 */
export function withMigratedDatabase(
  config: Config,
  io: CliIo,
  action: string,
  work: (database: DatabaseHandle) => Promise<number>,
): Promise<number> {
  return withDatabase(config, io, action, work, { migrate: true });
}

/** As withMigratedDatabase; `migrate: false` leaves the schema as it is (a dry run changes nothing). */
export async function withDatabase(
  config: Config,
  io: CliIo,
  action: string,
  work: (database: DatabaseHandle) => Promise<number>,
  options: { migrate: boolean },
): Promise<number> {
  let lock: DataDirLock | null = null;
  let database: DatabaseHandle | null = null;
  try {
    if (!config.databaseUrl) lock = await lockDataDir(config.dataDir);
    database = await openConfiguredDatabase(config);
    if (options.migrate) await database.migrate();
    return await work(database);
  } catch (error) {
    io.err(`${action} failed (${describeDatabase(config)}): ${databaseErrorMessage(error)}`);
    return 2;
  } finally {
    await database?.close().catch(() => undefined);
    await lock?.release();
  }
}
