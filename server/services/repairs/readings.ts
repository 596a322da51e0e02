/**
 * A vehicle's timeline (docs/API.md#get-vehicleskode_idreadings): its standing readings from every
 * garage with their verdicts, and whether the asking partner took each; never which garage did.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { VEHICLE_READINGS_MAX, type VehicleReading } from '../../../contract';
import type { Database } from '../../db/client';
import { repairs } from '../../db/schema';

/** Newest first; superseded readings have left the rules and are left out. */
export async function vehicleReadings(db: Database, kodeId: string, partnerId: string): Promise<VehicleReading[]> {
  const rows = await db
    .select({
      odometer: repairs.odometer,
      recorded_at: repairs.recorded_at,
      verdict: repairs.verdict,
      reasons: repairs.reasons,
      own: sql<boolean>`${repairs.partner_id} = ${partnerId}`.mapWith(Boolean),
    })
    .from(repairs)
    .where(and(eq(repairs.kode_id, kodeId), isNull(repairs.superseded_by)))
    .orderBy(desc(repairs.recorded_at), desc(repairs.id))
    .limit(VEHICLE_READINGS_MAX);
  return rows.map((row) => ({ ...row, recorded_at: row.recorded_at.toISOString() }));
}
