/** What the header and the history show about the outbox. */
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../db';
import { useOnline } from '../online';
import { usePartnerId } from '../partner';

export interface SyncStatus {
  online: boolean;
  /** This partner's entries still to be sent (pending, sending, waiting for a sign-in). */
  waiting: number;
  sending: number;
  /** Refused by the server: they stay until corrected or discarded. */
  rejected: number;
  waitingForSignIn: number;
}

export function useSyncStatus(): SyncStatus {
  const online = useOnline();
  const partnerId = usePartnerId();
  const counts = useLiveQuery(
    async () => {
      if (!partnerId) return { waiting: 0, sending: 0, rejected: 0, waitingForSignIn: 0 };
      const rows = await db.outbox.where('partnerId').equals(partnerId).toArray();
      return {
        waiting: rows.filter((row) => row.state !== 'rejected').length,
        sending: rows.filter((row) => row.state === 'sending').length,
        rejected: rows.filter((row) => row.state === 'rejected').length,
        waitingForSignIn: rows.filter((row) => row.state === 'waiting_for_sign_in').length,
      };
    },
    [partnerId],
    { waiting: 0, sending: 0, rejected: 0, waitingForSignIn: 0 },
  );
  return { online, ...counts };
}
