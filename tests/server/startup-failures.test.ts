/**
 * A server that cannot start says why in one line on stderr, naming the setting to change, and
 * exits non-zero: no stack trace, no library source. Each case spawns the real server.
 * The DATA_DIR cases run on the suite's database: on PGlite the data directory lock and the
 * database files are the first writes, on PostgreSQL the generated token keys.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../e2e/support/server';
import { linesOf, serverStartFailure, type Finished } from '../support/processes';
import { createPostgresDatabase, POSTGRES_ADMIN_URL } from '../support/test-app';

/** One line on stderr that matches every pattern; nothing that looks like a stack trace anywhere. */
function expectOneLine(result: Finished, ...patterns: RegExp[]) {
  expect(result.code, result.stderr).not.toBeNull();
  expect(result.code).not.toBe(0);
  const lines = linesOf(result.stderr);
  expect(lines, result.stderr).toHaveLength(1);
  for (const pattern of patterns) expect(lines[0]).toMatch(pattern);
  expect(result.stderr.length).toBeLessThan(500);
  expect(`${result.stdout}\n${result.stderr}`).not.toMatch(/^\s+at /m);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('start-up failures', { timeout: 90_000 }, () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  /** The suite's database: none for PGlite (it lives in DATA_DIR), a fresh one on PostgreSQL. */
  let databaseEnv: Record<string, string> = {};
  beforeAll(async () => {
    if (process.env.TEST_DB === 'postgres') {
      const database = await createPostgresDatabase();
      cleanups.push(() => database.drop());
      databaseEnv = { DATABASE_URL: database.url };
    }
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function tempDir(): Promise<string> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-startup-'));
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    return dir;
  }

  it('names PORT when the port is taken', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => taken.close(resolve)));
    const port = (taken.address() as net.AddressInfo).port;
    const result = await serverStartFailure({ ...databaseEnv, DATA_DIR: await tempDir(), PORT: String(port) });
    expectOneLine(result, /\bPORT\b/, new RegExp(`\\b${port}\\b`), /in use/);
  });

  it('names DATABASE_URL when PostgreSQL cannot be reached', async () => {
    const url = `postgres://portal:s3cret@127.0.0.1:${await freePort()}/portal`;
    const result = await serverStartFailure({ DATA_DIR: await tempDir(), DATABASE_URL: url });
    expectOneLine(result, /\bDATABASE_URL\b/, /unreachable/, /127\.0\.0\.1:\d+/);
    expect(result.stderr).not.toContain('s3cret');
  });

  it('names DATABASE_URL and the database when it does not exist', async () => {
    const url = new URL(POSTGRES_ADMIN_URL);
    const name = `missing_${crypto.randomBytes(4).toString('hex')}`;
    url.pathname = `/${name}`;
    const result = await serverStartFailure({ DATA_DIR: await tempDir(), DATABASE_URL: url.toString() });
    expectOneLine(result, /\bDATABASE_URL\b/, new RegExp(`"${name}"`), /does not exist/);
  });

  it('names DATA_DIR when it would have to be created under a regular file', async () => {
    const file = path.join(await tempDir(), 'a-file');
    await fs.writeFile(file, '');
    const dataDir = path.join(file, 'data');
    const result = await serverStartFailure({ ...databaseEnv, DATA_DIR: dataDir });
    expectOneLine(result, /\bDATA_DIR\b/, new RegExp(escape(dataDir)));
  });

  it('names DATA_DIR when it cannot be created (under /proc, which refuses new entries even to root)', async () => {
    const dataDir = `/proc/portal-data-${crypto.randomBytes(4).toString('hex')}`;
    const result = await serverStartFailure({ ...databaseEnv, DATA_DIR: dataDir });
    expectOneLine(result, /\bDATA_DIR\b/, new RegExp(escape(dataDir)));
  });

  it('names DATA_DIR when it cannot be written (/sys: a folder that refuses new files even to root)', async () => {
    const result = await serverStartFailure({ ...databaseEnv, DATA_DIR: '/sys' });
    expectOneLine(result, /\bDATA_DIR \/sys\b/);
  });

  it('names DATA_DIR when its disk is full (ENOSPC simulated by tests/support/full-disk.ts)', async () => {
    const dataDir = await tempDir();
    const result = await serverStartFailure({ ...databaseEnv, DATA_DIR: dataDir, FULL_DISK_DIR: dataDir }, [
      '--import',
      './tests/support/full-disk.ts',
    ]);
    expectOneLine(result, /\bDATA_DIR\b/, new RegExp(escape(dataDir)), /no space left/);
  });

  it('names DATA_DIR when the embedded database in it cannot be opened', async () => {
    // A regular file where the database folder should be: PGlite fails deep in its own code.
    const dataDir = await tempDir();
    await fs.writeFile(path.join(dataDir, 'pglite'), 'not a database');
    const result = await serverStartFailure({ DATA_DIR: dataDir });
    expectOneLine(result, /\bDATA_DIR\b/, new RegExp(escape(path.join(dataDir, 'pglite'))));
  });
});
