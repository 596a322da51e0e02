/**
 * One migrated embedded database per run of the server-pglite project, instead of one per test
 * file: creating a PGlite database (its initdb) took most of each file's set-up, several seconds
 * on a loaded machine. The project's global set-up (this file's default export) migrates one and
 * dumps it to a file; createTestApp starts each file's in-memory database from that dump. The
 * app still runs the migrations (none left to apply) and seeds at its start, as before.
 *
 * The same database is also laid out as a data directory (DATA_DIR/pglite), for the tests that start
 * the server or a command as a process on a DATA_DIR of their own (dataDirWithMigratedDatabase).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../server/db/client';

const DUMP_ENV = 'TEST_PGLITE_DUMP';
const DATA_DIR_ENV = 'TEST_PGLITE_DATA_DIR';

/** The migrated database to start from, or undefined (an empty one) outside the global set-up. */
export async function migratedPgliteDump(): Promise<Blob | undefined> {
  const file = process.env[DUMP_ENV];
  return file ? new Blob([await fs.readFile(file)]) : undefined;
}

/**
 * A new DATA_DIR (named after `prefix`, in the system's temporary folder) whose embedded database is
 * already migrated, as a server leaves it after its first start; an empty one outside the global
 * set-up and on the PostgreSQL server. The server still migrates (nothing left) and seeds at its start.
 */
export async function dataDirWithMigratedDatabase(prefix: string): Promise<string> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  const template = process.env[DATA_DIR_ENV];
  // On the PostgreSQL server (DATABASE_URL) the server never opens DATA_DIR/pglite.
  if (template && process.env.TEST_DB !== 'postgres') {
    await fs.cp(template, path.join(dataDir, 'pglite'), { recursive: true });
  }
  return dataDir;
}

export default async function setup(): Promise<() => Promise<void>> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-pglite-template-'));
  const handle = await openDatabase({ databaseUrl: null, pgliteDir: 'memory://' });
  await handle.migrate();
  // Drizzle keeps the client it wraps as $client; the handle's type does not name it.
  const client = (handle.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  await handle.close();
  const file = path.join(dir, 'migrated.tar');
  await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  const pgliteDir = path.join(dir, 'pglite');
  const { PGlite: EmbeddedDatabase } = await import('@electric-sql/pglite');
  const onDisk = await EmbeddedDatabase.create(pgliteDir, { loadDataDir: dump });
  await onDisk.close();
  // The test files run in worker processes started after this, with this process's environment.
  process.env[DUMP_ENV] = file;
  process.env[DATA_DIR_ENV] = pgliteDir;
  return async () => {
    delete process.env[DUMP_ENV];
    delete process.env[DATA_DIR_ENV];
    await fs.rm(dir, { recursive: true, force: true });
  };
}
