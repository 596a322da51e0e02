/**
 * Vehicle lookup (docs/ARCHITECTURE.md#the-offline-model-in-practice). Online: GET /vehicles/{kode_id}, cached per partner,
 * with the vehicle's timeline.
 * Server unreachable: the cached vehicle if this partner looked it up before, otherwise
 * 'offline-unknown' so the mechanic can still record by kode_id (the server checks it on sync).
 */
import { normaliseKodeId, type Vehicle } from '../../../../contract';
import { getVehicle } from '../api/get-vehicle';
import { db, type CachedVehicle } from '../../../lib/db';
import { currentPartnerId } from '../../../lib/partner';
import { refreshTimeline } from '../../../lib/entries/timeline';

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
  // The timeline comes with the lookup, fetched side by side (docs/PRODUCT.md#vehicle-timeline).
  const [result] = await Promise.all([getVehicle(id), refreshTimeline(id)]);
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
