/**
 * Migration 0006_session_devices on a database that already holds sessions (server/db/migrations): each
 * family's rows take the family's first sign-in as signed_in_at, and their own created_at as last use;
 * the device is unknown (''). On the database of the project running the suite (PGlite or PostgreSQL).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase, type DatabaseHandle } from '../../../server/db/client';
import { sessions } from '../../../server/db/schema';
import { createPostgresDatabase } from '../../support/test-app';

const TAG = '0006_session_devices';

/** The migrations folder as it stood before TAG: its files, and a journal that ends before it. */
async function migrationsBefore(tag: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-migrations-'));
  await fs.cp(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await fs.readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  await fs.writeFile(journalFile, JSON.stringify(journal));
  return dir;
}

/** drizzle's migrator with another folder, on the handle's own client. */
async function migrateFrom(handle: DatabaseHandle, folder: string): Promise<void> {
  if (handle.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(handle.db as never, { migrationsFolder: folder });
  } else {
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    await migrate(handle.db as never, { migrationsFolder: folder });
  }
}

describe(`migration ${TAG}`, () => {
  let handle: DatabaseHandle;
  let drop: (() => Promise<void>) | undefined;
  let before: string;
  beforeAll(async () => {
    const postgres = process.env.TEST_DB === 'postgres' ? await createPostgresDatabase() : null;
    drop = postgres?.drop;
    handle = await openDatabase({ databaseUrl: postgres?.url ?? null, pgliteDir: 'memory://', poolSize: 2 });
    before = await migrationsBefore(TAG);
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
    if (before) await fs.rm(before, { recursive: true, force: true });
  });

  it("gives the sessions signed in before it their family's sign-in and their own last use", async () => {
    await migrateFrom(handle, before);
    // One statement per call: the embedded database prepares each one.
    await handle.db.execute(sql`
      insert into users (id, email, full_name, password_hash)
        values ('00000000-0000-4000-8000-000000000001', 'garage@example.dz', 'Garage', 'x')`);
    await handle.db.execute(sql`
      insert into sessions (family_id, user_id, token_hash, expires_at, created_at, rotated_at) values
        ('10000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001', 'h1',
          now() + interval '1 day', '2026-11-01T10:00:00Z', '2026-11-01T10:15:00Z'),
        ('10000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001', 'h2',
          now() + interval '1 day', '2026-11-01T10:15:00Z', null),
        ('10000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'h3',
          now() + interval '1 day', '2026-11-02T08:00:00Z', null)`);
    await handle.migrate();
    const rows = await handle.db
      .select({
        token: sessions.token_hash,
        device: sessions.device,
        address: sessions.address,
        signedInAt: sessions.signed_in_at,
        lastUsedAt: sessions.last_used_at,
      })
      .from(sessions)
      .orderBy(sessions.token_hash);
    expect(
      rows.map((row) => ({
        ...row,
        signedInAt: row.signedInAt.toISOString(),
        lastUsedAt: row.lastUsedAt.toISOString(),
      })),
    ).toEqual([
      {
        token: 'h1',
        device: '',
        address: null,
        signedInAt: '2026-11-01T10:00:00.000Z',
        lastUsedAt: '2026-11-01T10:00:00.000Z',
      },
      {
        token: 'h2',
        device: '',
        address: null,
        signedInAt: '2026-11-01T10:00:00.000Z',
        lastUsedAt: '2026-11-01T10:15:00.000Z',
      },
      {
        token: 'h3',
        device: '',
        address: null,
        signedInAt: '2026-11-02T08:00:00.000Z',
        lastUsedAt: '2026-11-02T08:00:00.000Z',
      },
    ]);
  });
});
