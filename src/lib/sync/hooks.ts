/** What the header, the history and the banner above the screens show about the outbox. */
import { useLocalQuery } from '../local-query';
import { useKnownConnection } from '../online';
import { usePartnerId } from '../partner';
import type { OutboxAttention } from './outbox';

export interface SyncStatus {
  /** null until known: in a prerendered page and while it is hydrated (lib/online.ts useKnownConnection). */
  online: boolean | null;
  /** This partner's entries still to be sent (pending, sending, waiting for a sign-in). */
  waiting: number;
  /** Refused by the server: they stay until corrected or discarded. */
  rejected: number;
}

export function useSyncStatus(): SyncStatus {
  const online = useKnownConnection();
  const partnerId = usePartnerId();
  const counts = useLocalQuery(
    async ({ db, outboxCounts }) => {
      if (!partnerId) return { waiting: 0, rejected: 0 };
      const { unsent, rejected } = await outboxCounts(db, partnerId);
      return { waiting: unsent, rejected };
    },
    [partnerId],
    { waiting: 0, rejected: 0 },
  );
  return { online, ...counts };
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
