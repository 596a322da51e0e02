/**
 * A vehicle's timeline (docs/API.md#get-vehicleskode_idreadings): its standing readings from every
 * garage with their verdicts, whether the asking partner took each and whether it has a photo; never
 * which garage did, nor the photo.
 */
import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { VEHICLE_READINGS_MAX, type VehicleReading } from '../../../contract';
import type { Database } from '../../db/client';
import { repairPhotos, repairs } from '../../db/schema';

/** Newest first; superseded readings have left the rules and are left out. */
export async function vehicleReadings(db: Database, kodeId: string, partnerId: string): Promise<VehicleReading[]> {
  const rows = await db
    .select({
      odometer: repairs.odometer,
      recorded_at: repairs.recorded_at,
      verdict: repairs.verdict,
      reasons: repairs.reasons,
      own: sql<boolean>`${repairs.partner_id} = ${partnerId}`.mapWith(Boolean),
      has_photo: isNotNull(repairPhotos.repair_id).mapWith(Boolean),
    })
    .from(repairs)
    .leftJoin(repairPhotos, eq(repairPhotos.repair_id, repairs.id))
    .where(and(eq(repairs.kode_id, kodeId), isNull(repairs.superseded_by)))
    .orderBy(desc(repairs.recorded_at), desc(repairs.id))
    .limit(VEHICLE_READINGS_MAX);
  return rows.map((row) => ({ ...row, recorded_at: row.recorded_at.toISOString() }));
}
