/**
 * npm run db:migrate
 *
 * Applies pending migrations to the configured database (DATABASE_URL, or PGlite under DATA_DIR) and
 * seeds the reference data: repair types, the conditions texts, and in demo mode the demo vehicles
 * and partner. For deployments that run several API instances with MIGRATE_ON_START=false: run it
 * once before starting them. Safe to run again. Exit code 0 on success, 2 on any error.
 */
import { eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client';
import { users } from '../db/schema';
import { DEMO_PARTNER, seedDatabase } from '../db/seed';
import { describeDatabase, isMain, loadCliConfig, processIo, withMigratedDatabase, type CliIo } from './shared';

export async function runMigrate(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out('Usage: npm run db:migrate  (configured by DATABASE_URL or DATA_DIR, and DEMO / NODE_ENV)');
    return 0;
  }
  const config = loadCliConfig(io);
  if (!config) return 2;

  return withMigratedDatabase(config, io, 'Migration', async (database) => {
    io.out(`Migrations applied: ${describeDatabase(config)}`);
    const demoPartnerBefore = config.demo ? await findDemoPartner(database) : false;
    await seedDatabase(database.db, { demo: config.demo });
    io.out(`Reference data seeded (repair types, conditions${config.demo ? ', demo vehicles and partner' : ''})`);
    if (config.demo && !demoPartnerBefore && (await findDemoPartner(database))) {
      io.out(`Demo partner created: ${DEMO_PARTNER.email} / ${DEMO_PARTNER.password}`);
    }
    return 0;
  });
}

async function findDemoPartner(database: DatabaseHandle): Promise<boolean> {
  const rows = await database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, DEMO_PARTNER.email))
    .limit(1);
  return rows.length > 0;
}

if (isMain(import.meta.url)) {
  process.exitCode = await runMigrate(process.argv.slice(2), processIo());
}
