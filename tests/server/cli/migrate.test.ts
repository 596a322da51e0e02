import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrate } from '../../../server/cli/migrate';
import type { DatabaseHandle } from '../../../server/db/client';
import { repairTypes, settings, users, vehicles } from '../../../server/db/schema';
import { DEMO_PARTNER } from '../../../server/db/seed';
import { createCliDatabase, recordingIo, type CliDatabase } from './cli-support';

async function counts(handle: DatabaseHandle) {
  const [types] = await handle.db.select({ n: count() }).from(repairTypes);
  const [docs] = await handle.db.select({ n: count() }).from(settings);
  const [cars] = await handle.db.select({ n: count() }).from(vehicles);
  const demo = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_PARTNER.email));
  return { repairTypes: types?.n, settings: docs?.n, vehicles: cars?.n, demoPartner: demo.length };
}

describe('npm run db:migrate', () => {
  let db: CliDatabase;
  beforeAll(async () => {
    db = await createCliDatabase();
  });
  afterAll(() => db.cleanup());

  const inspect = async () => {
    const handle = await db.open();
    try {
      return await counts(handle);
    } finally {
      await handle.close();
    }
  };

  it('migrates an empty database and seeds the reference data without demo data when DEMO=false', async () => {
    const io = recordingIo({ ...db.env, DEMO: 'false' });
    expect(await runMigrate([], io)).toBe(0);
    expect(io.stderr).toEqual([]);
    expect(io.stdout[0]).toMatch(/^Migrations applied: (PGlite|PostgreSQL) at /);
    expect(await inspect()).toEqual({ repairTypes: 12, settings: 3, vehicles: 0, demoPartner: 0 });
  });

  it('adds the demo vehicles and partner in demo mode, and says so once', async () => {
    const io = recordingIo(db.env);
    expect(await runMigrate([], io)).toBe(0);
    expect(io.stdout).toContain(`Demo partner created: ${DEMO_PARTNER.email} / ${DEMO_PARTNER.password}`);
    expect(await inspect()).toEqual({ repairTypes: 12, settings: 3, vehicles: 60, demoPartner: 1 });
    const again = recordingIo(db.env);
    expect(await runMigrate([], again)).toBe(0);
    expect(again.stdout.join('\n')).not.toContain('Demo partner created');
    expect(await inspect()).toEqual({ repairTypes: 12, settings: 3, vehicles: 60, demoPartner: 1 });
  });

  it('exits 2 with a clear message on a bad configuration', async () => {
    const io = recordingIo({ ...db.env, NODE_ENV: 'production' });
    expect(await runMigrate([], io)).toBe(2);
    expect(io.stderr[0]).toBe(
      'Configuration error: ACCESS_TOKEN_KEY, RESET_TOKEN_KEY, HANDOVER_KEY and CERTIFICATE_KEY are required when NODE_ENV=production',
    );
  });

  it('exits 2 when the database cannot be reached', async () => {
    const io = recordingIo({ ...db.env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(await runMigrate([], io)).toBe(2);
    expect(io.stderr[0]).toMatch(/^Migration failed \(PostgreSQL at 127\.0\.0\.1:1\/none\)/);
  });
});
