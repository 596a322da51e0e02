/**
 * One process at a time on the embedded database: a second server or a command on the same
 * DATA_DIR is refused at once with one line naming the directory and the running pid, before it
 * writes anything, and the first process keeps working. A lock left by a process killed with
 * SIGKILL is taken over. With DATABASE_URL there is nothing to lock: instances share the server.
 * Real processes throughout, since the point is what two processes do.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from '../../server/db/data-dir-lock';
import { dataDirWithMigratedDatabase } from '../support/pglite-template';
import { createPostgresDatabase } from '../support/test-app';
import {
  linesOf,
  runScript,
  serverStartFailure,
  startServer,
  type Finished,
  type ServerProcess,
} from '../support/processes';

const DEMO = { email: 'garage@demo.dz', password: 'demo-garage-2026' };
const CSV = 'kode_id,vin,brand,model,year\nLOCK000001,VF1S1CD16RB267735,Renault,Symbol,2024\n';
const LOCK_FILE = 'portal.lock';

async function signIn(server: ServerProcess): Promise<number> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...DEMO, remember_me: false }),
  });
  return res.status;
}

function importVehicles(env: Record<string, string>, csvFile: string): Promise<Finished> {
  return runScript('server/cli/import-vehicles.ts', [csvFile], env).finished;
}

/** The one line a refused process prints: the directory and the pid of the process holding it. */
function expectRefusal(result: Finished, dataDir: string, holderPid: number | undefined) {
  expect(result.code).not.toBe(0);
  expect(result.code).not.toBeNull();
  const lines = linesOf(result.stderr);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(dataDir);
  expect(lines[0]).toContain(`pid ${holderPid}`);
  expect(lines[0]).toContain('DATA_DIR');
  expect(result.stdout).toBe('');
}

describe('the data directory lock', { timeout: 120_000 }, () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function newDataDir(): Promise<{ dataDir: string; csvFile: string }> {
    const dataDir = await dataDirWithMigratedDatabase('portal-lock-');
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const csvFile = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'portal-lock-csv-')), 'vehicles.csv');
    cleanups.push(() => fs.rm(path.dirname(csvFile), { recursive: true, force: true }));
    await fs.writeFile(csvFile, CSV);
    return { dataDir, csvFile };
  }

  async function start(env: Record<string, string>): Promise<ServerProcess> {
    const server = await startServer(env);
    cleanups.push(async () => void server.child.kill('SIGKILL'));
    return server;
  }

  it('refuses a second lock within one process, and gives the directory back on release', async () => {
    const { dataDir } = await newDataDir();
    const lock = await lockDataDir(dataDir);
    await expect(lockDataDir(dataDir)).rejects.toThrow(DataDirInUseError);
    await lock.release();
    await expect(fs.access(lock.file)).rejects.toThrow();
    await (await lockDataDir(dataDir)).release();
  });

  it('takes over a lock file that names no pid (left empty by a full disk, say)', async () => {
    const { dataDir } = await newDataDir();
    await fs.writeFile(path.join(dataDir, LOCK_FILE), '');
    const lock = await lockDataDir(dataDir);
    expect(await fs.readFile(lock.file, 'utf8')).toMatch(new RegExp(`^${process.pid}\n`));
    await lock.release();
  });

  if (process.env.TEST_DB !== 'postgres') {
    it('refuses a second server on the same DATA_DIR; the first keeps working', async () => {
      const { dataDir } = await newDataDir();
      const env = { DATA_DIR: dataDir, NODE_ENV: 'development' };
      const first = await start(env);
      const lock = await fs.readFile(path.join(dataDir, LOCK_FILE), 'utf8');
      expect(lock.split('\n')[0]).toBe(String(first.child.pid));
      const before = await fs.readdir(dataDir);

      expectRefusal(await serverStartFailure(env), dataDir, first.child.pid);
      // It touched nothing: same files, same lock.
      expect(await fs.readdir(dataDir)).toEqual(before);
      expect(await fs.readFile(path.join(dataDir, LOCK_FILE), 'utf8')).toBe(lock);

      expect(await signIn(first)).toBe(200);
      expect(await first.stop()).toBe(0);
      // A clean close releases the lock.
      await expect(fs.access(path.join(dataDir, LOCK_FILE))).rejects.toThrow();
    });

    it('refuses import:vehicles while a server holds DATA_DIR; runs once it has stopped', async () => {
      const { dataDir, csvFile } = await newDataDir();
      const env = { DATA_DIR: dataDir, NODE_ENV: 'development' };
      const server = await start(env);

      expectRefusal(await importVehicles(env, csvFile), dataDir, server.child.pid);
      // The file is checked before the database is opened (README.md#importing-vehicles): one with a
      // rejected row exits 1 at once, before the lock is tried, whatever runs beside it.
      const rejected = path.join(path.dirname(csvFile), 'rejected.csv');
      await fs.writeFile(rejected, CSV.replace('LOCK000001', 'SHORT'));
      const early = await importVehicles(env, rejected);
      expect(early.code).toBe(1);
      expect(early.stderr).not.toContain(String(server.child.pid));
      expect(early.stdout).toContain('not opened: nothing to write');
      expect(await signIn(server)).toBe(200);
      expect(await server.stop()).toBe(0);

      const afterStop = await importVehicles(env, csvFile);
      expect(afterStop.code).toBe(0);
      expect(afterStop.stdout).toMatch(/imported:\s+1\n/);
      await expect(fs.access(path.join(dataDir, LOCK_FILE))).rejects.toThrow();
    });

    it('takes over the lock of a server killed with SIGKILL, for a server and for a command', async () => {
      const { dataDir, csvFile } = await newDataDir();
      const env = { DATA_DIR: dataDir, NODE_ENV: 'development' };
      const killed = await start(env);
      killed.child.kill('SIGKILL');
      await killed.finished;
      const stale = await fs.readFile(path.join(dataDir, LOCK_FILE), 'utf8');
      expect(stale.split('\n')[0]).toBe(String(killed.child.pid));

      const imported = await importVehicles(env, csvFile);
      expect(imported.stderr).toBe('');
      expect(imported.code).toBe(0);

      // The command released its lock; kill a server again and start another over its stale lock.
      const second = await start(env);
      second.child.kill('SIGKILL');
      await second.finished;
      const third = await start(env);
      const lock = await fs.readFile(path.join(dataDir, LOCK_FILE), 'utf8');
      expect(lock.split('\n')[0]).toBe(String(third.child.pid));
      expect(await signIn(third)).toBe(200);
      expect(await third.stop()).toBe(0);
    });
  } else {
    it('takes no lock with DATABASE_URL: two servers and a command share one DATA_DIR', async () => {
      const { dataDir, csvFile } = await newDataDir();
      const database = await createPostgresDatabase();
      cleanups.push(() => database.drop());
      const env = { DATA_DIR: dataDir, DATABASE_URL: database.url, NODE_ENV: 'development' };
      const first = await start(env);
      const second = await start(env);
      const imported = await importVehicles(env, csvFile);
      expect(imported.code).toBe(0);
      expect([await signIn(first), await signIn(second)]).toEqual([200, 200]);
      await expect(fs.access(path.join(dataDir, LOCK_FILE))).rejects.toThrow();
      expect(await first.stop()).toBe(0);
      expect(await second.stop()).toBe(0);
    });
  }
});
