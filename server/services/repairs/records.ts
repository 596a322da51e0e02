/**
 * Repairs as the wire shows them (docs/API.md#repair-record): each with its vehicle and repair type,
 * read in one query. The partner's history and the replay of an idempotent request both read here.
 */
import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm';
import { CORRECTION_WINDOW_MS, type RepairRecord } from '../../../contract';
import { photoColumns, photoOfRow, type PhotoColumns } from '../photos';
import type { Database } from '../../db/client';
import { repairPhotos, repairTypes, repairs, vehicles } from '../../db/schema';
import { vehicleAnswerColumns } from '../vehicle-lookup';

/** The columns of a repair as the wire shows it: the repair with its vehicle and repair type. */
export const recordColumns = {
  id: repairs.id,
  vehicle: vehicleAnswerColumns,
  repair_type_id: repairTypes.id,
  repair_type_name: repairTypes.name,
  repair_type_name_ar: repairTypes.name_ar,
  repair_type_name_en: repairTypes.name_en,
  odometer: repairs.odometer,
  note: repairs.note,
  verdict: repairs.verdict,
  reasons: repairs.reasons,
  superseded_by: repairs.superseded_by,
  corrects: repairs.corrects,
  correction_reason: repairs.correction_reason,
  recorded_at: repairs.recorded_at,
  created_at: repairs.created_at,
  original_created_at: repairs.original_created_at,
  idempotency_key: repairs.idempotency_key,
  ...photoColumns,
};

export interface RecordRow extends PhotoColumns {
  id: string;
  vehicle: RepairRecord['vehicle'];
  repair_type_id: string;
  repair_type_name: string;
  repair_type_name_ar: string | null;
  repair_type_name_en: string | null;
  odometer: number;
  note: string;
  verdict: RepairRecord['verdict'];
  reasons: RepairRecord['reasons'];
  superseded_by: string | null;
  corrects: string | null;
  correction_reason: RepairRecord['correction_reason'];
  recorded_at: Date;
  created_at: Date;
  original_created_at: Date | null;
  idempotency_key: string;
}

/**
 * Until when a repair can be corrected (docs/API.md#corrections): the window runs from when the first
 * repair of its chain of corrections was stored, so correcting a correction never extends it. The
 * create service refuses a correction by the same rule.
 */
export function correctionWindowStart(row: { created_at: Date; original_created_at: Date | null }): Date {
  return row.original_created_at ?? row.created_at;
}

function correctableUntil(row: RecordRow): string | null {
  if (row.superseded_by !== null) return null;
  return new Date(correctionWindowStart(row).getTime() + CORRECTION_WINDOW_MS).toISOString();
}

export function toRecord(row: RecordRow): RepairRecord {
  return {
    id: row.id,
    vehicle: row.vehicle,
    repair_type: {
      id: row.repair_type_id,
      name: row.repair_type_name,
      name_ar: row.repair_type_name_ar,
      name_en: row.repair_type_name_en,
    },
    odometer: row.odometer,
    note: row.note,
    verdict: row.verdict,
    reasons: row.reasons,
    odometer_anomaly: row.verdict === 'implausible',
    superseded_by: row.superseded_by,
    corrects: row.corrects,
    correction_reason: row.correction_reason,
    recorded_at: row.recorded_at.toISOString(),
    created_at: row.created_at.toISOString(),
    correctable_until: correctableUntil(row),
    photo: photoOfRow(row),
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
    .leftJoin(repairPhotos, eq(repairPhotos.repair_id, repairs.id))
    .where(where)
    .orderBy(desc(repairs.recorded_at), desc(repairs.id))
    .limit(limit);
  return rows.map(toRecord);
}

/**
 * The partner's repairs, newest first by (recorded_at, id). `before` (with `beforeId`, the last item's
 * id) is an exclusive cursor in that order: repairs sharing the last item's recorded_at are not skipped.
 */
export function listRepairs(
  db: Database,
  partnerId: string,
  options: { limit: number; before?: Date; beforeId?: string },
): Promise<RepairRecord[]> {
  return selectRecords(db, and(eq(repairs.partner_id, partnerId), olderThan(options)), options.limit);
}

function olderThan({ before, beforeId }: { before?: Date; beforeId?: string }): SQL | undefined {
  if (!before) return undefined;
  if (!beforeId) return lt(repairs.recorded_at, before);
  return or(lt(repairs.recorded_at, before), and(eq(repairs.recorded_at, before), lt(repairs.id, beforeId)));
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
    .leftJoin(repairPhotos, eq(repairPhotos.repair_id, repairs.id))
    .where(and(eq(repairs.partner_id, partnerId), eq(repairs.idempotency_key, idempotencyKey)))
    .limit(1);
  return row ? { repair: toRecord(row), requestHash: row.request_hash } : null;
}

/** One repair as the wire shows it, by id. */
export async function findRecord(db: Database, id: string): Promise<RepairRecord | null> {
  const [record] = await selectRecords(db, eq(repairs.id, id), 1);
  return record ?? null;
}
