/**
 * The rows of the outbox and photos tables, as IndexedDB keeps them: the sync module's own, which
 * src/lib/db.ts declares in the tablet's database.
 */
import type { PhotoType, RepairEntry } from '../../../contract';

/**
 * The entry's state, in the words of its life (entry-state.ts), those an entry in the outbox can be in:
 * stored as it is, so what the sender, the screens and the hand-over read is the state itself
 * (version 7 of the database; earlier versions kept four words of their own).
 */
export type OutboxState = 'queued' | 'sending' | 'waiting_for_sign_in' | 'refused' | 'in_conflict';

/**
 * The last failure of a queued entry: the HTTP status (0 when the server was not reached), the API's
 * reason code when it gave one, and its words. The words may be empty (an entry imported from a
 * hand-over file, which carries codes only): the screens word the reason themselves.
 */
export interface OutboxError {
  code: number;
  reason?: string;
  message: string;
  fields?: Record<string, string>;
}

export interface OutboxEntry {
  /** The Idempotency-Key, made when the mechanic pressed Insert. */
  key: string;
  partnerId: string;
  /** The body sent to POST /repairs, recorded_at included. */
  entry: RepairEntry & { recorded_at: string };
  state: OutboxState;
  /** Local sequence: the mechanic's own order, kept per vehicle when sending. */
  seq: number;
  attempts: number;
  nextAttemptAt: number;
  lastError: OutboxError | null;
  createdAt: string;
}

/**
 * The odometer's photo taken with an entry (docs/ARCHITECTURE.md#odometer-photos), kept beside it until
 * the server has both: the entry goes first, then the photo, joined to the repair the server stored.
 */
export interface PhotoRow {
  /** The Idempotency-Key of the entry it was taken with. */
  id: string;
  /** The entry it belongs to now: a refused entry sent again takes a new key, and its photo follows. */
  entryKey: string;
  /**
   * The repair the server stored for its entry, when the photo came without the entry: handed over from
   * another tablet that had sent the entry already. Otherwise this tablet's history knows it.
   */
  repairId?: string;
  partnerId: string;
  /** Already made small on the tablet (src/lib/photos/encode.ts): no metadata, long side ≤ 1,600 px. */
  blob: Blob;
  type: PhotoType;
  bytes: number;
  width: number;
  height: number;
  /** waiting: to be sent once its entry is stored; refused: the server said no (lastError says why). */
  state: 'waiting' | 'refused';
  attempts: number;
  nextAttemptAt: number;
  lastError: OutboxError | null;
  createdAt: string;
}
