/**
 * Stored verdicts (docs/PRODUCT.md#odometer-plausibility): every repair carries the verdict the rules of
 * contract/readings.ts give over its vehicle's stored readings. Whatever changes a vehicle's readings
 * locks the vehicle's row first and re-judges them all before committing, so two instances storing
 * readings of one vehicle at once take turns and the stored verdicts always match the stored readings.
 * The rules read each reading's arrival (created_at), so a late arrival is judged on its own and leaves
 * the verdicts of the readings received before it as they were.
 */
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { judgeReadings, LATE_REPORT_MS, type Judgement, type Reading } from '../../../contract';
import type { Database } from '../../db/client';
import { repairs, vehicles } from '../../db/schema';

/**
 * SELECT … FOR UPDATE on the vehicles' rows, in one order, so two transactions locking the same two
 * vehicles (a wrong_vehicle correction) never wait on each other. PGlite has one connection, so its
 * transactions already run one at a time; the lock is for PostgreSQL.
 */
export async function lockVehicles(tx: Database, kodeIds: readonly string[]): Promise<void> {
  const ids = [...new Set(kodeIds)].sort();
  await tx
    .select({ kode_id: vehicles.kode_id })
    .from(vehicles)
    .where(inArray(vehicles.kode_id, ids))
    .orderBy(asc(vehicles.kode_id))
    .for('update');
}

export type JudgedRow = {
  id: string;
  odometer: number;
  recorded_at: Date;
  created_at: Date;
  /** On a correction: when the first repair of its chain was stored (docs/API.md#corrections). */
  original_created_at: Date | null;
  superseded_by: string | null;
  correction_reason: Reading['correction_reason'];
  verdict: Judgement['verdict'];
  reasons: Judgement['reasons'];
};

/**
 * A stored repair as the rules see it: received when the server stored it. A correction stands in for
 * the entry it corrects, with its moment and its arrival (docs/PRODUCT.md#late-readings): it is
 * late only when that entry was, and is ordered against late readings by that entry's arrival.
 */
export function toReading(row: Omit<JudgedRow, 'verdict' | 'reasons'>): Reading {
  return {
    id: row.id,
    odometer: row.odometer,
    recorded_at: row.recorded_at.toISOString(),
    received_at: (row.original_created_at ?? row.created_at).toISOString(),
    superseded: row.superseded_by !== null,
    correction_reason: row.correction_reason,
  };
}

const unchanged = (row: JudgedRow, judgement: Judgement) =>
  row.verdict === judgement.verdict && row.reasons.join() === judgement.reasons.join();

/**
 * Judges all of a vehicle's readings again and writes the verdicts that changed. A vehicle has a
 * reading per visit to a garage, tens over its life, so they are all read. Call it with the vehicle locked.
 */
export async function rejudgeVehicle(tx: Database, kodeId: string): Promise<void> {
  const rows: JudgedRow[] = await tx
    .select({
      id: repairs.id,
      odometer: repairs.odometer,
      recorded_at: repairs.recorded_at,
      created_at: repairs.created_at,
      original_created_at: repairs.original_created_at,
      superseded_by: repairs.superseded_by,
      correction_reason: repairs.correction_reason,
      verdict: repairs.verdict,
      reasons: repairs.reasons,
    })
    .from(repairs)
    .where(eq(repairs.kode_id, kodeId));
  const judgements = judgeReadings(rows.map(toReading));
  for (const row of rows) {
    const judgement = judgements.get(row.id);
    if (!judgement || unchanged(row, judgement)) continue;
    await tx
      .update(repairs)
      .set({ verdict: judgement.verdict, reasons: judgement.reasons })
      .where(eq(repairs.id, row.id));
  }
}

/**
 * Vehicles whose readings were stored before verdicts existed (the 0001 migration left them all
 * 'no_verdict' without reasons): two readings or more, or a single one reported late. A vehicle judged
 * since has a verdict or a reason somewhere, so this finds nothing after the first start.
 */
async function unjudgedVehicles(db: Database): Promise<string[]> {
  const lateMs = sql.raw(String(LATE_REPORT_MS));
  const rows = await db
    .select({ kode_id: repairs.kode_id })
    .from(repairs)
    .groupBy(repairs.kode_id)
    .having(
      sql`bool_and(${repairs.verdict} = 'no_verdict' and cardinality(${repairs.reasons}) = 0)
        and (count(*) > 1 or bool_or(${repairs.created_at} - ${repairs.recorded_at} > ${lateMs} * interval '1 millisecond'))`,
    );
  return rows.map((row) => row.kode_id);
}

/** At start (with the migrations): judges the vehicles stored before verdicts existed, one transaction each. */
export async function judgeUnjudgedVehicles(db: Database): Promise<void> {
  for (const kodeId of await unjudgedVehicles(db)) {
    await db.transaction(async (tx) => {
      await lockVehicles(tx, [kodeId]);
      await rejudgeVehicle(tx, kodeId);
    });
  }
}
