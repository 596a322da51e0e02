/**
 * Repairs: the partner's history, statistics, vehicle lookups and the idempotent recording of a
 * new repair (docs/API.md#post-repairs, docs/PRODUCT.md#odometer-plausibility). Routes stay thin; the queries live here.
 */
import crypto from 'node:crypto';
import { and, count, countDistinct, desc, eq, gte, lt, max, sql, type SQL } from 'drizzle-orm';
import {
  ODOMETER_MAX_KM_PER_DAY,
  RECORDED_AT_MAX_AGE_MS,
  RECORDED_AT_MAX_FUTURE_MS,
  type RepairRecord,
  type Statistics,
  type Vehicle,
} from '../../contract';
import type { Database } from '../db/client';
import { repairTypes, repairs, vehicles } from '../db/schema';

/** Calendar months for statistics are counted in the garages' time zone. */
export const PORTAL_TIME_ZONE = 'Africa/Algiers';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The columns of a repair as the wire shows it: the repair with its vehicle and repair type. */
const recordColumns = {
  id: repairs.id,
  kode_id: vehicles.kode_id,
  vin: vehicles.vin,
  brand: vehicles.brand,
  model: vehicles.model,
  year: vehicles.year,
  repair_type_id: repairTypes.id,
  repair_type_name: repairTypes.name,
  repair_type_name_ar: repairTypes.name_ar,
  repair_type_name_en: repairTypes.name_en,
  odometer: repairs.odometer,
  note: repairs.note,
  odometer_anomaly: repairs.odometer_anomaly,
  recorded_at: repairs.recorded_at,
  created_at: repairs.created_at,
  idempotency_key: repairs.idempotency_key,
};

interface RecordRow {
  id: string;
  kode_id: string;
  vin: string;
  brand: string;
  model: string;
  year: number;
  repair_type_id: string;
  repair_type_name: string;
  repair_type_name_ar: string | null;
  repair_type_name_en: string | null;
  odometer: number;
  note: string;
  odometer_anomaly: boolean;
  recorded_at: Date;
  created_at: Date;
  idempotency_key: string;
}

function toRecord(row: RecordRow): RepairRecord {
  return {
    id: row.id,
    vehicle: { kode_id: row.kode_id, vin: row.vin, brand: row.brand, name: row.model, year: row.year },
    repair_type: {
      id: row.repair_type_id,
      name: row.repair_type_name,
      name_ar: row.repair_type_name_ar,
      name_en: row.repair_type_name_en,
    },
    odometer: row.odometer,
    note: row.note,
    odometer_anomaly: row.odometer_anomaly,
    recorded_at: row.recorded_at.toISOString(),
    created_at: row.created_at.toISOString(),
    idempotency_key: row.idempotency_key,
  };
}

/** Repairs with their vehicle and type, in one query (no N+1), newest first. */
async function selectRecords(db: Database, where: SQL | undefined, limit: number): Promise<RepairRecord[]> {
  const rows = await db
    .select(recordColumns)
    .from(repairs)
    .innerJoin(vehicles, eq(vehicles.kode_id, repairs.kode_id))
    .innerJoin(repairTypes, eq(repairTypes.id, repairs.repair_type_id))
    .where(where)
    .orderBy(desc(repairs.recorded_at), desc(repairs.id))
    .limit(limit);
  return rows.map(toRecord);
}

/** The partner's repairs, newest first by recorded_at; `before` is an exclusive cursor on recorded_at. */
export function listRepairs(
  db: Database,
  partnerId: string,
  options: { limit: number; before?: Date },
): Promise<RepairRecord[]> {
  const where = options.before
    ? and(eq(repairs.partner_id, partnerId), lt(repairs.recorded_at, options.before))
    : eq(repairs.partner_id, partnerId);
  return selectRecords(db, where, options.limit);
}

/** The first instant of the calendar month that `now` falls in, in the given IANA time zone. */
export function startOfMonthIn(timeZone: string, now: Date): Date {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric' }).formatToParts(now);
  const year = Number(parts.find((part) => part.type === 'year')?.value);
  const month = Number(parts.find((part) => part.type === 'month')?.value);
  const localMidnightAsUtc = Date.UTC(year, month - 1, 1);
  // The zone's offset at that moment (e.g. "GMT+01:00"); Algiers keeps one all year, others may not.
  const offsetAt = (instant: number) => {
    const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(new Date(instant))
      .find((part) => part.type === 'timeZoneName')?.value;
    const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
    if (!match) return 0;
    const minutes = Number(match[2]) * 60 + Number(match[3]);
    return (match[1] === '-' ? -minutes : minutes) * 60_000;
  };
  const guess = localMidnightAsUtc - offsetAt(localMidnightAsUtc);
  return new Date(localMidnightAsUtc - offsetAt(guess));
}

export async function partnerStatistics(db: Database, partnerId: string, now: Date): Promise<Statistics> {
  const monthStart = startOfMonthIn(PORTAL_TIME_ZONE, now);
  const [row] = await db
    .select({
      repairs_total: count(),
      repairs_this_month: sql<number>`count(*) filter (where ${gte(repairs.recorded_at, monthStart)})`.mapWith(Number),
      vehicles_total: countDistinct(repairs.kode_id),
      last_repair_at: max(repairs.recorded_at),
    })
    .from(repairs)
    .where(eq(repairs.partner_id, partnerId));
  return {
    repairs_total: row?.repairs_total ?? 0,
    repairs_this_month: row?.repairs_this_month ?? 0,
    vehicles_total: row?.vehicles_total ?? 0,
    last_repair_at: row?.last_repair_at ? row.last_repair_at.toISOString() : null,
  };
}

/** A vehicle with its last known reading across every partner's repairs, or null when unknown. */
export async function findVehicle(db: Database, kodeId: string): Promise<Vehicle | null> {
  const [vehicle] = await db.select().from(vehicles).where(eq(vehicles.kode_id, kodeId)).limit(1);
  if (!vehicle) return null;
  const [last] = await db
    .select({ odometer: repairs.odometer, recorded_at: repairs.recorded_at })
    .from(repairs)
    .where(eq(repairs.kode_id, kodeId))
    .orderBy(desc(repairs.recorded_at), desc(repairs.id))
    .limit(1);
  return {
    kode_id: vehicle.kode_id,
    vin: vehicle.vin,
    brand: vehicle.brand,
    name: vehicle.model,
    year: vehicle.year,
    last_odometer: last?.odometer ?? null,
    last_odometer_at: last ? last.recorded_at.toISOString() : null,
  };
}

/** JSON with object keys sorted at every level, so equal values always serialise alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(body: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/**
 * A reading is suspicious when it is lower than the vehicle's previous one, or higher than the
 * vehicle could plausibly have driven since (docs/PRODUCT.md#odometer-plausibility). Only earlier readings count.
 */
export function isOdometerAnomaly(
  previous: { odometer: number; recorded_at: Date } | undefined,
  odometer: number,
  recordedAt: Date,
): boolean {
  if (!previous) return false;
  if (odometer < previous.odometer) return true;
  const days = Math.max(1, (recordedAt.getTime() - previous.recorded_at.getTime()) / DAY_MS);
  return odometer - previous.odometer > ODOMETER_MAX_KM_PER_DAY * days;
}

export function recordedAtInRange(recordedAt: Date, now: Date): boolean {
  const at = recordedAt.getTime();
  return at <= now.getTime() + RECORDED_AT_MAX_FUTURE_MS && at >= now.getTime() - RECORDED_AT_MAX_AGE_MS;
}

export interface NewRepair {
  partnerId: string;
  idempotencyKey: string;
  requestHash: string;
  kodeId: string;
  repairTypeId: string;
  odometer: number;
  note: string;
  recordedAt: Date;
  createdAt: Date;
}

export type StoredRepair = { repair: RepairRecord; requestHash: string };

/** The repair a partner stored under an idempotency key, with the hash of the request that made it. */
export async function findByIdempotencyKey(
  db: Database,
  partnerId: string,
  idempotencyKey: string,
): Promise<StoredRepair | null> {
  const [row] = await db
    .select({ ...recordColumns, request_hash: repairs.request_hash })
    .from(repairs)
    .innerJoin(vehicles, eq(vehicles.kode_id, repairs.kode_id))
    .innerJoin(repairTypes, eq(repairTypes.id, repairs.repair_type_id))
    .where(and(eq(repairs.partner_id, partnerId), eq(repairs.idempotency_key, idempotencyKey)))
    .limit(1);
  return row ? { repair: toRecord(row), requestHash: row.request_hash } : null;
}

export type CreateOutcome =
  | { kind: 'created'; repair: RepairRecord }
  | { kind: 'vehicle_not_found' }
  | { kind: 'repair_type_not_found' }
  /** Another request with the same key won the race: the caller compares hashes. */
  | { kind: 'exists'; stored: StoredRepair };

/**
 * Stores a repair once per (partner, idempotency key). Two identical requests at once both reach
 * the INSERT; ON CONFLICT DO NOTHING lets exactly one write, and the other reads the winner's row.
 */
export async function createRepair(db: Database, input: NewRepair): Promise<CreateOutcome> {
  const [[vehicle], [repairType], [previous]] = await Promise.all([
    db.select().from(vehicles).where(eq(vehicles.kode_id, input.kodeId)).limit(1),
    db.select().from(repairTypes).where(eq(repairTypes.id, input.repairTypeId)).limit(1),
    db
      .select({ odometer: repairs.odometer, recorded_at: repairs.recorded_at })
      .from(repairs)
      .where(and(eq(repairs.kode_id, input.kodeId), lt(repairs.recorded_at, input.recordedAt)))
      .orderBy(desc(repairs.recorded_at), desc(repairs.id))
      .limit(1),
  ]);
  if (!vehicle) return { kind: 'vehicle_not_found' };
  if (!repairType) return { kind: 'repair_type_not_found' };
  const [inserted] = await db
    .insert(repairs)
    .values({
      partner_id: input.partnerId,
      kode_id: vehicle.kode_id,
      repair_type_id: repairType.id,
      odometer: input.odometer,
      note: input.note,
      odometer_anomaly: isOdometerAnomaly(previous, input.odometer, input.recordedAt),
      recorded_at: input.recordedAt,
      created_at: input.createdAt,
      idempotency_key: input.idempotencyKey,
      request_hash: input.requestHash,
    })
    .onConflictDoNothing({ target: [repairs.partner_id, repairs.idempotency_key] })
    .returning();
  if (inserted) {
    return {
      kind: 'created',
      repair: toRecord({
        ...inserted,
        vin: vehicle.vin,
        brand: vehicle.brand,
        model: vehicle.model,
        year: vehicle.year,
        repair_type_name: repairType.name,
        repair_type_name_ar: repairType.name_ar,
        repair_type_name_en: repairType.name_en,
      }),
    };
  }
  const stored = await findByIdempotencyKey(db, input.partnerId, input.idempotencyKey);
  // The row that blocked the insert is committed, so it is visible now; a missing one would be a bug.
  if (!stored) throw new Error('idempotency conflict without a stored repair');
  return { kind: 'exists', stored };
}
