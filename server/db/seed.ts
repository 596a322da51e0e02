/**
 * Seed data (docs/PRODUCT.md#demo-data): repair types and the settings documents always; the demo
 * vehicles and the demo partner only in demo mode. Runs at every start and only fills gaps.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './client';
import { partners, repairTypes, settings, users } from './schema';
import { csvRecords } from '../services/csv';
import { importVehicles } from '../services/vehicle-import';
import { hashPassword } from '../services/passwords';
import { judgeUnjudgedVehicles } from '../services/repairs/judge';
import { PARTNER_CONDITIONS, SHIPPED_BEFORE, type ConditionsKey } from './conditions';

const SEED_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'seed');

export const DEMO_PARTNER = {
  email: 'garage@demo.dz',
  password: 'demo-garage-2026',
  full_name: 'Garage Demo El Harrach',
  phone_number: '0555123456',
  latitude: 36.7213,
  longitude: 3.1444,
} as const;

export async function seedRepairTypes(db: Database) {
  const rows = csvRecords(await fs.readFile(path.join(SEED_DIR, 'repair-types.csv'), 'utf8'));
  const values = rows.map(({ record }, index) => ({
    id: record.id ?? '',
    name: record.name ?? '',
    name_ar: record.name_ar || null,
    name_en: record.name_en || null,
    sort_order: index,
  }));
  await db
    .insert(repairTypes)
    .values(values)
    .onConflictDoUpdate({
      target: repairTypes.id,
      set: {
        name: sql`excluded.name`,
        name_ar: sql`excluded.name_ar`,
        name_en: sql`excluded.name_en`,
        sort_order: sql`excluded.sort_order`,
      },
    });
}

/**
 * Writes missing conditions texts, and upgrades a stored one only when it is exactly a text an
 * earlier release shipped (see SHIPPED_BEFORE): a text an operator edited is never overwritten.
 */
export async function seedSettings(db: Database) {
  await db
    .insert(settings)
    .values(Object.entries(PARTNER_CONDITIONS).map(([key, value]) => ({ key, value })))
    .onConflictDoNothing();
  const keys = Object.keys(PARTNER_CONDITIONS) as ConditionsKey[];
  const stored = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, keys));
  for (const { key, value } of stored) {
    const current = PARTNER_CONDITIONS[key as ConditionsKey];
    const hash = crypto.createHash('sha256').update(value, 'utf8').digest('hex');
    if (value === current || !SHIPPED_BEFORE[key as ConditionsKey].includes(hash)) continue;
    // "and value = the one read": an operator's edit made meanwhile is left alone.
    await db
      .update(settings)
      .set({ value: current, updated_at: new Date() })
      .where(and(eq(settings.key, key), eq(settings.value, value)));
  }
}

async function seedDemoPartner(db: Database) {
  const existing = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`${users.email} = ${DEMO_PARTNER.email}`);
  if (existing.length > 0) return false;
  const [user] = await db
    .insert(users)
    .values({
      email: DEMO_PARTNER.email,
      full_name: DEMO_PARTNER.full_name,
      password_hash: await hashPassword(DEMO_PARTNER.password),
    })
    .returning({ id: users.id });
  if (!user) return false;
  await db.insert(partners).values({
    user_id: user.id,
    phone_number: DEMO_PARTNER.phone_number,
    latitude: DEMO_PARTNER.latitude,
    longitude: DEMO_PARTNER.longitude,
    conditions_accepted_at: new Date(),
  });
  return true;
}

export async function seedDatabase(db: Database, options: { demo: boolean; log?: FastifyBaseLogger }) {
  await seedRepairTypes(db);
  await seedSettings(db);
  // Readings stored before verdicts existed get theirs (docs/PRODUCT.md#odometer-plausibility).
  await judgeUnjudgedVehicles(db);
  if (!options.demo) return;
  const csv = await fs.readFile(path.join(SEED_DIR, 'vehicles.csv'), 'utf8');
  await importVehicles(db, csv, { updateExisting: false });
  if (await seedDemoPartner(db)) {
    options.log?.info(`demo partner created: ${DEMO_PARTNER.email} / ${DEMO_PARTNER.password}`);
  }
}
