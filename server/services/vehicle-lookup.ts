/** A vehicle by its KODE ID (docs/API.md#get-vehicleskode_id), with the last reading any garage recorded. */
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Vehicle } from '../../contract';
import type { Database } from '../db/client';
import { repairs, vehicles } from '../db/schema';

/**
 * A vehicle's columns under the wire's names, for every answer that shows a vehicle (a lookup, a
 * repair record). The registry, the import file and a repair entry call the model `model`, the word a
 * garage uses; the wire's vehicle calls it `name`, the spec's word, which the API's clients read. This
 * select is where the server turns one into the other, once.
 */
export const vehicleAnswerColumns = {
  kode_id: vehicles.kode_id,
  vin: vehicles.vin,
  brand: vehicles.brand,
  name: vehicles.model,
  year: vehicles.year,
};

/**
 * A vehicle with its last known reading across every partner's repairs, or null when unknown. The last
 * reading is the timeline's first (server/services/repairs/readings.ts) and the last the odometer rules
 * judge: standing readings only (a superseded one has left the rules, and its correction shares its
 * recorded_at), in recorded order, recorded_at then id (docs/PRODUCT.md#odometer-plausibility).
 */
export async function findVehicle(db: Database, kodeId: string): Promise<Vehicle | null> {
  const [vehicle] = await db.select(vehicleAnswerColumns).from(vehicles).where(eq(vehicles.kode_id, kodeId)).limit(1);
  if (!vehicle) return null;
  const [last] = await db
    .select({ odometer: repairs.odometer, recorded_at: repairs.recorded_at })
    .from(repairs)
    .where(and(eq(repairs.kode_id, kodeId), isNull(repairs.superseded_by)))
    .orderBy(desc(repairs.recorded_at), desc(repairs.id))
    .limit(1);
  return {
    ...vehicle,
    last_odometer: last?.odometer ?? null,
    last_odometer_at: last ? last.recorded_at.toISOString() : null,
  };
}
