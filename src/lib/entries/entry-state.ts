/**
 * An odometer entry's life, in one place (docs/ARCHITECTURE.md#the-offline-model-in-practice):
 * - draft → queued (Insert) ⇄ sending (claimed; back to queued for a retry) → stored;
 * - stored → superseded, once a correction of it is stored;
 * - sending → refused, or in conflict (the server holds its key with other values): parked until the
 *   mechanic queues it again under a new key, or discards it (or a history refresh finds it stored);
 * - queued or sending → waiting for a sign-in (a 401 nobody could cure) → queued at the next sign-in.
 *
 * The outbox stores an entry's state in these words (OutboxState: those of an entry still on the
 * tablet) with its last error; a stored entry has left the outbox for the history. The table below says
 * which moves are allowed (transition.ts makes every move, and only these); the functions which states
 * count as unsent, and the history's status label (the badge a mechanic reads) of each state.
 * Pure and small: the screens' first load may import it.
 */
import type { EntryRefusalCode, RepairRecord } from '../../../contract';
import type { OutboxEntry, OutboxError, OutboxState } from './outbox-rows';
import { parksAs, type ParkedState } from './parking';

export type EntryState =
  /** Being typed: not on the tablet yet. */
  | 'draft'
  /** In the outbox, waiting for its turn in its vehicle's queue, its backoff or the network. */
  | 'queued'
  /** Claimed by a sender: its request is on its way. */
  | 'sending'
  /** Held after a 401 nobody could cure: goes again at the partner's next sign-in. */
  | 'waiting_for_sign_in'
  /** The server has it (it left the outbox for the history). */
  | 'stored'
  /** The server refused it: to be corrected (sent again under a new key) or discarded. */
  | 'refused'
  /** The server holds its key with other values: to be recorded as a correction of that repair, or discarded. */
  | 'in_conflict'
  /** Stored, then replaced by a stored correction. */
  | 'superseded'
  /** Dropped by the mechanic (refused or in conflict): gone. */
  | 'discarded';

const TRANSITIONS: Record<EntryState, readonly EntryState[]> = {
  draft: ['queued'],
  // A history refresh may find a queued entry stored (its answer was lost), or stored with other values.
  queued: ['sending', 'waiting_for_sign_in', 'stored', 'in_conflict'],
  // Back to queued: a retry, a claim given up, a sender that died mid-send.
  sending: ['queued', 'stored', 'refused', 'in_conflict', 'waiting_for_sign_in'],
  waiting_for_sign_in: ['queued', 'stored', 'in_conflict'],
  // Stored: a history refresh found the server holding it as it is (sent from another tablet meanwhile).
  refused: ['queued', 'in_conflict', 'discarded', 'stored'],
  in_conflict: ['queued', 'discarded', 'stored'],
  stored: ['superseded'],
  superseded: [],
  discarded: [],
};

export function mayMove(from: EntryState, to: EntryState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The server's answer to a key it already stores with another body (docs/API.md#post-repairs). */
export const CONFLICT_REASON = 'idempotency_conflict' satisfies EntryRefusalCode;

/** Refused because the server holds its key with other values: only a correction of that repair helps. */
export function isConflict(error: OutboxError | null | undefined): boolean {
  return error?.reason !== undefined && parksAs(error.reason) === 'in_conflict';
}

/** The states an entry the outbox holds can be in: what its row stores (OutboxState, a subset of EntryState). */
export type OutboxEntryState = Extract<EntryState, OutboxState>;

/** The states of a repair the server stored. */
export type StoredEntryState = Extract<EntryState, 'stored' | 'superseded'>;

/** The state of a repair the server stored. */
export function storedEntryState(record: Pick<RepairRecord, 'superseded_by'>): StoredEntryState {
  return record.superseded_by ? 'superseded' : 'stored';
}

/**
 * Still to be sent: holds back later entries of its vehicle, is counted as waiting (header,
 * statistics, sign-out) and is a known reading for the odometer check. Listed, so the outbox can count
 * them on its index.
 */
export const UNSENT_STATES = ['queued', 'sending', 'waiting_for_sign_in'] as const satisfies readonly OutboxState[];

/** Going by itself, nothing asked of the mechanic: queued or being sent (a retry will send it). */
export const RETRIED_STATES = ['queued', 'sending'] as const satisfies readonly OutboxState[];

export function isUnsent(row: Pick<OutboxEntry, 'state'>): boolean {
  return (UNSENT_STATES as readonly OutboxState[]).includes(row.state);
}

export function isRetried(row: Pick<OutboxEntry, 'state'>): boolean {
  return (RETRIED_STATES as readonly OutboxState[]).includes(row.state);
}

/** Queued: the one state a sender may claim an entry from, once it is due. */
export function isQueued(row: Pick<OutboxEntry, 'state'>): boolean {
  return row.state === 'queued';
}

/** Refused or in conflict: parked, holding nothing back, until the mechanic corrects or discards it. */
export const PARKED_STATES = ['refused', 'in_conflict'] as const satisfies readonly (OutboxState & ParkedState)[];

export function waitsForMechanic(state: EntryState): boolean {
  return (PARKED_STATES as readonly EntryState[]).includes(state);
}

/** The state a refusal parks an entry in (parking.ts): in conflict when the server holds its key with other values. */
export function parkedState(error: OutboxError | null | undefined): ParkedState {
  return parksAs(error?.reason);
}

/**
 * The status the history shows for an entry (docs/PRODUCT.md#history-tab): synced, pending, sending,
 * rejected or waiting for a sign-in. A label of the screen, made from the state, never stored.
 */
export type EntryStatusLabel = 'synced' | 'pending' | 'sending' | 'rejected' | 'waiting_for_sign_in';

/** An entry the outbox holds or the server stored always has one; a draft or a discarded one has none. */
export function entryStatusLabel(state: OutboxEntryState | StoredEntryState): EntryStatusLabel;
export function entryStatusLabel(state: EntryState): EntryStatusLabel | null;
export function entryStatusLabel(state: EntryState): EntryStatusLabel | null {
  switch (state) {
    case 'stored':
    case 'superseded':
      return 'synced';
    case 'queued':
      return 'pending';
    case 'refused':
    case 'in_conflict':
      return 'rejected';
    case 'sending':
    case 'waiting_for_sign_in':
      return state;
    default:
      // A draft or a discarded entry is not in the history.
      return null;
  }
}
