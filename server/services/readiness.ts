/**
 * Whether this instance can serve (docs/API.md#get-apihealthready): the database answers within a
 * second, and every migration of this release is applied to it. Redis is reported, never required:
 * while it is away the rate limits count in memory and every call still works.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { max } from 'drizzle-orm';
import { bigint, pgSchema } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';

/** The database must answer the readiness query within this, or the instance is not ready. */
export const DATABASE_ANSWER_BOUND_MS = 1_000;

/**
 * Where drizzle's migrator records what it applied (its defaults, as server/db/client.ts uses them):
 * one row per migration, `created_at` being the migration's `when` in the journal. Declared here, not
 * in server/db/schema.ts, so drizzle-kit never generates a migration for drizzle's own table.
 */
const appliedMigrations = pgSchema('drizzle').table('__drizzle_migrations', {
  createdAt: bigint('created_at', { mode: 'number' }),
});

interface Journal {
  entries: Array<{ tag: string; when: number }>;
}

/** The `when` of the newest migration this release ships (server/db/migrations/meta/_journal.json). */
export async function newestMigrationOf(migrationsFolder: string): Promise<number> {
  const journal = JSON.parse(
    await fs.readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as Journal;
  return Math.max(0, ...journal.entries.map((entry) => entry.when));
}

export type DatabaseState = 'ok' | 'down';
export type MigrationsState = 'ok' | 'pending' | 'unknown';

/** PostgreSQL's codes for a table or schema that does not exist: drizzle's migrator never ran here. */
const NEVER_MIGRATED = new Set(['42P01', '3F000']);

/** Drizzle wraps the driver's error (DrizzleQueryError) and keeps it as the cause. */
function driverErrorOf(error: unknown): unknown {
  return error instanceof Error && error.cause ? error.cause : error;
}

function sqlStateOf(error: unknown): string | undefined {
  const code = (driverErrorOf(error) as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

class Timeout extends Error {}

function within<T>(query: PromiseLike<T>, ms: number): Promise<T> {
  // Once into a real promise: a drizzle query runs again at every then() called on it.
  const answer = Promise.resolve(query);
  // It may still fail after the bound: nobody awaits it then.
  answer.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Timeout(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One query both proves the database answers and reads what the migrator applied: drizzle's own
 * rule is that a migration is applied when the newest recorded `created_at` is at least its `when`.
 */
export async function checkDatabase(
  db: Database,
  newestMigration: number,
): Promise<{ database: DatabaseState; migrations: MigrationsState; reason?: string }> {
  try {
    const [row] = await within(
      db.select({ newest: max(appliedMigrations.createdAt) }).from(appliedMigrations),
      DATABASE_ANSWER_BOUND_MS,
    );
    const newestApplied = Number(row?.newest ?? 0);
    return { database: 'ok', migrations: newestApplied >= newestMigration ? 'ok' : 'pending' };
  } catch (error) {
    if (NEVER_MIGRATED.has(sqlStateOf(error) ?? '')) return { database: 'ok', migrations: 'pending' };
    const cause = driverErrorOf(error);
    // The driver's own words ("database … does not exist", "PGlite is closed"), never the query's parameters.
    const reason = cause instanceof Error ? cause.message : String(cause);
    return { database: 'down', migrations: 'unknown', reason };
  }
}
