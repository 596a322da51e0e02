/**
 * Recording a repair (docs/API.md#post-repairs): once per (partner, Idempotency-Key), possibly as the
 * correction of one of the partner's own repairs (docs/API.md#corrections). Storing it re-judges its
 * vehicle's readings in the same transaction (docs/PRODUCT.md#odometer-plausibility).
 */
import { and, eq, isNull } from 'drizzle-orm';
import {
  CORRECTION_WINDOW_MS,
  RECORDED_AT_MAX_AGE_MS,
  RECORDED_AT_MAX_FUTURE_MS,
  type CorrectionReason,
  type RepairRecord,
} from '../../../contract';
import type { Database } from '../../db/client';
import { repairTypes, repairs, vehicles } from '../../db/schema';
import { lockVehicles, rejudgeVehicle } from './judge';
import { correctionWindowStart, findByIdempotencyKey, findRecord, type StoredRepair } from './records';

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
  /** Set when this repair corrects one of the partner's own. */
  correction?: { corrects: string; reason: CorrectionReason };
}

/** Why a correction is refused, in the order the checks run (docs/API.md#corrections). */
export type CorrectionRefusal =
  | 'repair_not_found'
  | 'already_corrected'
  | 'correction_window_closed'
  | 'correction_vehicle_changed'
  | 'correction_recorded_at_changed';

export type CreateOutcome =
  | { kind: 'created'; repair: RepairRecord }
  | { kind: 'vehicle_not_found' }
  | { kind: 'repair_type_not_found' }
  | { kind: CorrectionRefusal }
  /** A request with the same key was stored first: the caller compares hashes. */
  | { kind: 'exists'; stored: StoredRepair };

type Original = {
  id: string;
  kode_id: string;
  recorded_at: Date;
  created_at: Date;
  original_created_at: Date | null;
  superseded_by: string | null;
};

/** The partner's own repair a correction names; another partner's is as unknown as a missing one. */
async function findOriginal(db: Database, partnerId: string, id: string): Promise<Original | null> {
  const [row] = await db
    .select({
      id: repairs.id,
      kode_id: repairs.kode_id,
      recorded_at: repairs.recorded_at,
      created_at: repairs.created_at,
      original_created_at: repairs.original_created_at,
      superseded_by: repairs.superseded_by,
    })
    .from(repairs)
    .where(and(eq(repairs.id, id), eq(repairs.partner_id, partnerId)))
    .limit(1);
  return row ?? null;
}

/**
 * The checks of docs/API.md#corrections, in order. A correction stands in for the reading it corrects:
 * it keeps its moment (recorded_at, compared as an instant) and its vehicle, unless the reason is that
 * the vehicle was wrong; and the 7 days run from the first repair of the chain, never from a correction.
 */
function refusalOf(original: Original | null, input: NewRepair, kodeId: string): CorrectionRefusal | null {
  if (!original) return 'repair_not_found';
  if (original.superseded_by !== null) return 'already_corrected';
  if (input.createdAt.getTime() - correctionWindowStart(original).getTime() > CORRECTION_WINDOW_MS) {
    return 'correction_window_closed';
  }
  if (kodeId !== original.kode_id && input.correction?.reason !== 'wrong_vehicle') return 'correction_vehicle_changed';
  if (input.recordedAt.getTime() !== original.recorded_at.getTime()) return 'correction_recorded_at_changed';
  return null;
}

/**
 * Stores a repair once per (partner, idempotency key). The vehicle's row is locked first (and, for a
 * correction, the original's vehicle's too), so requests touching one vehicle take turns: the key and
 * the original are checked under the lock, the repair is inserted, the original marked superseded, and
 * every reading of the vehicles involved judged again before the transaction commits.
 */
export async function createRepair(db: Database, input: NewRepair): Promise<CreateOutcome> {
  const [[vehicle], [repairType]] = await Promise.all([
    db.select().from(vehicles).where(eq(vehicles.kode_id, input.kodeId)).limit(1),
    db.select().from(repairTypes).where(eq(repairTypes.id, input.repairTypeId)).limit(1),
  ]);
  if (!vehicle) return { kind: 'vehicle_not_found' };
  if (!repairType) return { kind: 'repair_type_not_found' };
  const { correction } = input;
  // Read once unlocked to know which vehicle to lock; its kode_id never changes, its state is read again.
  const before = correction ? await findOriginal(db, input.partnerId, correction.corrects) : null;
  if (correction && !before) return { kind: 'repair_not_found' };
  const touched = before ? [vehicle.kode_id, before.kode_id] : [vehicle.kode_id];

  return db.transaction(async (tx) => {
    await lockVehicles(tx, touched);
    const stored = await findByIdempotencyKey(tx, input.partnerId, input.idempotencyKey);
    // A replay of a correction finds its original superseded by itself: the key answers first.
    if (stored) return { kind: 'exists', stored };
    const original = correction ? await findOriginal(tx, input.partnerId, correction.corrects) : null;
    const refusal = correction ? refusalOf(original, input, vehicle.kode_id) : null;
    if (refusal) return { kind: refusal };

    const id = await insertRepair(tx, input, vehicle.kode_id, original && correctionWindowStart(original));
    if (!id) {
      // Same key, another vehicle: that request held another lock and committed first.
      const winner = await findByIdempotencyKey(tx, input.partnerId, input.idempotencyKey);
      if (!winner) throw new Error('idempotency conflict without a stored repair');
      return { kind: 'exists', stored: winner };
    }
    if (original)
      await tx
        .update(repairs)
        .set({ superseded_by: id })
        .where(and(eq(repairs.id, original.id), isNull(repairs.superseded_by)));
    for (const kodeId of new Set(touched)) await rejudgeVehicle(tx, kodeId);
    const repair = await findRecord(tx, id);
    if (!repair) throw new Error('stored repair not found');
    return { kind: 'created', repair };
  });
}

/**
 * The INSERT; ON CONFLICT DO NOTHING leaves the row of the same key sent first, and returns no id.
 * `windowStart`, on a correction, is when its chain's first repair was stored: the correction inherits it.
 */
async function insertRepair(
  tx: Database,
  input: NewRepair,
  kodeId: string,
  windowStart: Date | null,
): Promise<string | null> {
  const [inserted] = await tx
    .insert(repairs)
    .values({
      partner_id: input.partnerId,
      kode_id: kodeId,
      repair_type_id: input.repairTypeId,
      odometer: input.odometer,
      note: input.note,
      recorded_at: input.recordedAt,
      created_at: input.createdAt,
      idempotency_key: input.idempotencyKey,
      request_hash: input.requestHash,
      corrects: input.correction?.corrects ?? null,
      correction_reason: input.correction?.reason ?? null,
      original_created_at: windowStart,
    })
    .onConflictDoNothing({ target: [repairs.partner_id, repairs.idempotency_key] })
    .returning({ id: repairs.id });
  return inserted?.id ?? null;
}
