/** Repair types (docs/ARCHITECTURE.md#the-offline-model-in-practice): fetched when online, kept in IndexedDB, served from there. */
import { useEffect } from 'react';
import type { RepairType } from '../../../../contract';
import { getRepairTypes } from '../api/get-repair-types';
import { loadLocalStore, useLocalQuery } from '../../../lib/local-query';
import { usePartnerId } from '../../../lib/partner';
import { singleFlight } from '../../../lib/single-flight';

/** A fetch younger than this is not repeated when another screen asks. */
const REUSE_MS = 60_000;
let fetchedAt = 0;

/** Replaces the cached list with the server's; false when the server could not be asked. */
export function refreshRepairTypes(options: { force?: boolean } = {}): Promise<boolean> {
  return fetchOnce(options.force ?? false);
}

/** One fetch at a time: a forced call arriving during a fetch shares it (its answer is as fresh). */
const fetchOnce = singleFlight(async (force: boolean): Promise<boolean> => {
  if (!force && Date.now() - fetchedAt < REUSE_MS) {
    const { db } = await loadLocalStore();
    if ((await db.repairTypes.count()) > 0) return true;
  }
  // The database's code is asked for once the answer is in: at start, not alongside the first screen.
  const result = await getRepairTypes();
  if (result.status !== 'success') return false;
  const { db } = await loadLocalStore();
  await db.transaction('rw', db.repairTypes, async () => {
    await db.repairTypes.clear();
    await db.repairTypes.bulkPut(result.data.map((type, position) => ({ ...type, position })));
  });
  fetchedAt = Date.now();
  return true;
});

function stripPosition({ position: _position, ...type }: RepairType & { position: number }): RepairType {
  return type;
}

/**
 * The cached repair types in the server's order, refreshed on first use; undefined while loading, and
 * while no partner is known (the dashboard's frame at start reads nothing, the tablet's database
 * included).
 */
export function useRepairTypes(): RepairType[] | undefined {
  const partnerId = usePartnerId();
  useEffect(() => {
    if (partnerId) void refreshRepairTypes().catch(() => false);
  }, [partnerId]);
  return useLocalQuery(
    async ({ db }) => (partnerId ? (await db.repairTypes.orderBy('position').toArray()).map(stripPosition) : undefined),
    [partnerId],
    undefined,
  );
}
