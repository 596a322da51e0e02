/**
 * For the command-line tests: an empty database of the kind the suite runs on (a PGlite data
 * directory, or a new database on the PostgreSQL server) and the environment that points a
 * command at it, plus an io that records what the command prints.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { CliIo } from '../../../server/cli/shared';
import { openDatabase, type DatabaseHandle } from '../../../server/db/client';
import { POSTGRES_ADMIN_URL } from '../../support/test-app';

export interface CliDatabase {
  env: Record<string, string>;
  dataDir: string;
  /** Opens the database the command used; close it before the next command runs (PGlite is single-process). */
  open(): Promise<DatabaseHandle>;
  cleanup(): Promise<void>;
}

export async function createCliDatabase(): Promise<CliDatabase> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-cli-'));
  let databaseUrl: string | null = null;
  let name: string | null = null;
  if (process.env.TEST_DB === 'postgres') {
    name = `t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  return {
    env: {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    dataDir,
    open: () => openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite'), poolSize: 1 }),
    async cleanup() {
      if (name) {
        const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
        await admin.connect();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface RecordingIo extends CliIo {
  stdout: string[];
  stderr: string[];
}

export function recordingIo(env: Record<string, string>, cwd = process.cwd()): RecordingIo {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { env, cwd, stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}
