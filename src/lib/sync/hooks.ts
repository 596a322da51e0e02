/** What the header and the history show about the outbox. */
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../db';
import { useOnline } from '../online';
import { usePartnerId } from '../partner';

export interface SyncStatus {
  online: boolean;
  /** This partner's entries still to be sent (pending, sending, waiting for a sign-in). */
  waiting: number;
  /** Refused by the server: they stay until corrected or discarded. */
  rejected: number;
}

export function useSyncStatus(): SyncStatus {
  const online = useOnline();
  const partnerId = usePartnerId();
  // Two counts on indexes, no entry read: this query runs again after every outbox write, a thousand
  // times and more while a long queue drains.
  const counts = useLiveQuery(
    async () => {
      if (!partnerId) return { waiting: 0, rejected: 0 };
      const [all, rejected] = await Promise.all([
        db.outbox.where('partnerId').equals(partnerId).count(),
        db.outbox.where('[partnerId+state]').equals([partnerId, 'rejected']).count(),
      ]);
      return { waiting: all - rejected, rejected };
    },
    [partnerId],
    { waiting: 0, rejected: 0 },
  );
  return { online, ...counts };
}
