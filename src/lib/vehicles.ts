/**
 * Vehicle lookup (docs/ARCHITECTURE.md#the-offline-model-in-practice). Online: GET /vehicles/{kode_id}, cached per partner.
 * Server unreachable: the cached vehicle if this partner looked it up before, otherwise
 * 'offline-unknown' so the mechanic can still record by kode_id (the server checks it on sync).
 */
import type { Vehicle } from '../../contract';
import { getVehicle } from './api/partner/get-vehicle';
import { db, type CachedVehicle } from './db';
import { judgeReading, latestReading, type KnownReading, type ReadingVerdict } from './odometer';
import { currentPartnerId } from './partner';
import { isUnsent, normaliseKodeId } from './sync/outbox';

export type VehicleLookup =
  | { kind: 'found'; vehicle: Vehicle }
  /** The server was not reached: the vehicle as this partner last looked it up. */
  | { kind: 'cached'; vehicle: Vehicle; fetchedAt: string }
  /** The server was not reached and the vehicle was never looked up here. */
  | { kind: 'offline-unknown'; kodeId: string }
  | { kind: 'not-found'; message: string }
  | { kind: 'error'; message: string };

function withoutCacheFields(row: CachedVehicle): Vehicle {
  const { partnerId: _partnerId, fetchedAt: _fetchedAt, ...vehicle } = row;
  return vehicle;
}

export async function cachedVehicle(kodeId: string, partnerId = currentPartnerId()): Promise<CachedVehicle | null> {
  if (!partnerId) return null;
  return (await db.vehicles.get([partnerId, normaliseKodeId(kodeId)])) ?? null;
}

export async function lookupVehicle(kodeId: string): Promise<VehicleLookup> {
  const partnerId = currentPartnerId();
  const id = normaliseKodeId(kodeId);
  const result = await getVehicle(id);
  if (result.status === 'success') {
    if (partnerId) {
      await db.vehicles
        .put({
          ...result.data,
          kode_id: normaliseKodeId(result.data.kode_id),
          partnerId,
          fetchedAt: new Date().toISOString(),
        })
        .catch(() => undefined);
    }
    return { kind: 'found', vehicle: result.data };
  }
  const unreachable =
    result.code === 0 || result.code >= 500 || result.code === 429 || typeof result.error.reason !== 'string';
  if (unreachable) {
    const cached = await cachedVehicle(id, partnerId).catch(() => null);
    if (cached) return { kind: 'cached', vehicle: withoutCacheFields(cached), fetchedAt: cached.fetchedAt };
    return { kind: 'offline-unknown', kodeId: id };
  }
  if (result.code === 404) return { kind: 'not-found', message: result.error.message };
  return { kind: 'error', message: result.error.message };
}

/**
 * The last reading this tablet knows for a vehicle: the lookup's (every garage's last reading), this
 * partner's synced history, and this partner's entries still waiting to be sent; the most recent wins.
 */
export async function lastKnownReading(kodeId: string, vehicle?: Vehicle | null): Promise<KnownReading | null> {
  const partnerId = currentPartnerId();
  const id = normaliseKodeId(kodeId);
  const fromLookup = vehicle ?? (await cachedVehicle(id, partnerId));
  const candidates: (KnownReading | null)[] = [];
  if (fromLookup && fromLookup.last_odometer !== null) {
    candidates.push({ odometer: fromLookup.last_odometer, at: fromLookup.last_odometer_at });
  }
  if (partnerId) {
    const history = await db.history.where('[partnerId+vehicle.kode_id]').equals([partnerId, id]).toArray();
    const queued = await db.outbox.where('[partnerId+entry.kode_id]').equals([partnerId, id]).toArray();
    for (const row of history) candidates.push({ odometer: row.odometer, at: row.recorded_at });
    for (const row of queued.filter(isUnsent))
      candidates.push({ odometer: row.entry.odometer, at: row.entry.recorded_at });
  }
  return latestReading(candidates);
}

/** Is this reading plausible for the vehicle? (docs/PRODUCT.md#odometer-plausibility) */
export async function checkReading(
  kodeId: string,
  odometer: number,
  vehicle?: Vehicle | null,
): Promise<ReadingVerdict> {
  return judgeReading(await lastKnownReading(kodeId, vehicle), odometer, Date.now());
}
