/**
 * What the screens of the first load read of the sync (the header, the banner above the screens, the
 * sending panel, the statistics): kept apart from index.ts, which holds the sender and loads after the
 * first screen. Both are the sync module's public API (see index.ts).
 */
import { useSyncExternalStore } from 'react';
import { useLocalQuery } from '../local-query';
import { usePartnerId } from '../partner';
import type { OutboxAttention } from './outbox-queries';
import { getInitialSyncStatus, getSyncStatus, subscribeSyncStatus, type SyncStatus } from './status';

export { getSyncStatus, subscribeSyncStatus, type SyncError, type SyncStatus } from './status';

/** The sync status, live; a prerendered page hydrates with nothing known. */
export function useSyncStatus(): SyncStatus {
  return useSyncExternalStore(subscribeSyncStatus, getSyncStatus, getInitialSyncStatus);
}

/**
 * An entry still unsent this long after it entered this tablet's outbox is named above the screens
 * (docs/ARCHITECTURE.md#entries-that-need-the-mechanic).
 */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/** The signed-in partner's entries that need the mechanic, as of `now` (epoch ms); null while read. */
export function useOutboxAttention(now: number): OutboxAttention | null {
  const partnerId = usePartnerId();
  const staleBefore = new Date(now - STALE_AFTER_MS).toISOString();
  return useLocalQuery(
    async ({ db, outboxAttention }) => (partnerId ? outboxAttention(db, partnerId, staleBefore) : null),
    [partnerId, staleBefore],
    null,
  );
}
