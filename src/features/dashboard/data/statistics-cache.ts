/**
 * The partner's statistics, kept on the tablet: fetched at sign-in, when the dashboard opens, when
 * the tablet comes back online and when queued entries reach the server, and read from IndexedDB,
 * so the numbers (with when they were fetched) show offline from the first minute, after a reload too.
 */
import type { Statistics } from '../../../../contract';
import { loadLocalStore, useLocalQuery } from '../../../lib/local-query';
import { currentPartnerId } from '../../../lib/partner';
import { singleFlightBy } from '../../../lib/single-flight';
import { getStatistics } from '../api/get-statistics';

export interface CachedStatistics {
  statistics: Statistics;
  /** When the server gave these numbers (ISO 8601). */
  fetchedAt: string;
}

/** One fetch per partner at a time: a screen asking while one is under way shares it. */
const fetchAndKeepOnce = singleFlightBy((partnerId: string) => partnerId, fetchAndKeep);

/** Fetches the signed-in partner's statistics and keeps them; false when the server could not be asked. */
export function refreshStatistics(): Promise<boolean> {
  const partnerId = currentPartnerId();
  if (!partnerId) return Promise.resolve(false);
  return fetchAndKeepOnce(partnerId);
}

async function fetchAndKeep(partnerId: string): Promise<boolean> {
  const result = await getStatistics();
  if (result.status !== 'success') return false;
  const cached: CachedStatistics = { statistics: result.data, fetchedAt: new Date().toISOString() };
  const { partnerMetaKey, writeMeta } = await loadLocalStore();
  await writeMeta(partnerMetaKey('statistics', partnerId), cached).catch(() => undefined);
  return true;
}

/** The partner's kept statistics, live: undefined while reading, null when none were ever fetched. */
export function useCachedStatistics(partnerId: string | null): CachedStatistics | null | undefined {
  return useLocalQuery(
    async ({ partnerMetaKey, readMeta }) =>
      partnerId ? ((await readMeta<CachedStatistics>(partnerMetaKey('statistics', partnerId))) ?? null) : null,
    [partnerId],
    undefined,
  );
}
