/**
 * Every change of an entry's state, as one pure function (docs/ARCHITECTURE.md#the-entries-module):
 * `transition(entry, event)` says what the entry becomes when something happens to it, or null when
 * that cannot happen to it in its state (entry-state.ts's table). The outbox's writes (outbox.ts,
 * outbox-handover.ts) apply what it answers and nothing else: no other code writes an entry's state.
 * An entry arrives in the outbox through `arrival` (Insert, or a hand-over file's import).
 *
 * Whether a sender still holds its claim on the entry (nobody changed it since) is the outbox's
 * question, asked before a transition is applied; this one only knows states.
 */
import type { OutboxEntry, OutboxError } from './outbox-rows';
import { CONFLICT_REASON, mayMove, parkedState, type EntryState } from './entry-state';

export type EntryEvent =
  /** A sender takes it: its request is about to leave. */
  | { type: 'claimed' }
  /** The sender let go before anything was sent, or died mid-send, or its 401 was about an older session. */
  | { type: 'released' }
  /** No answer, 5xx, 429…: queued again, due at `nextAttemptAt`. */
  | { type: 'failed'; error: OutboxError; nextAttemptAt: number }
  /** The server refused it: parked where its reason says (parking.ts). */
  | { type: 'refused'; error: OutboxError }
  /**
   * A 401 nobody could cure: every unsent entry of the partner waits for the next sign-in. `error`: the
   * answer to this entry's own request, when it was the one sent.
   */
  | { type: 'session_lost'; error?: OutboxError }
  /** The partner signed in again: due at once. */
  | { type: 'signed_in' }
  /** The server holds it: its answer, or a history refresh that found it (its answer was lost). */
  | { type: 'stored' }
  /** A history refresh found the server holding its key with other values. */
  | { type: 'found_in_conflict' }
  /** The mechanic corrected a refused entry: queued again under a new key, as `entry`. */
  | { type: 'corrected'; key: string; entry: OutboxEntry['entry'] }
  /** The mechanic recorded an entry in conflict as a correction of the stored repair: under a new key, as `entry`. */
  | { type: 'recorded_as_correction'; key: string; entry: OutboxEntry['entry'] }
  /** The mechanic dropped a refused entry, or one in conflict. */
  | { type: 'discarded' }
  /** "Send now": a queued entry is due at once, whatever its backoff. */
  | { type: 'due_now' };

/** What the entry becomes: still in the outbox as `entry`, or gone from it (into the history, or dropped). */
export type Moved =
  { kind: 'kept'; entry: OutboxEntry } | { kind: 'left'; state: Extract<EntryState, 'stored' | 'discarded'> };

/** How an entry found in conflict by a history refresh is refused: worded by the screens, from its reason. */
export const CONFLICT_ERROR: OutboxError = { code: 422, reason: CONFLICT_REASON, message: '' };

function kept(entry: OutboxEntry, to: OutboxEntry['state'], changes: Partial<OutboxEntry> = {}): Moved | null {
  if (to !== entry.state && !mayMove(entry.state, to)) return null;
  return { kind: 'kept', entry: { ...entry, ...changes, state: to } };
}

function left(entry: OutboxEntry, to: 'stored' | 'discarded'): Moved | null {
  return mayMove(entry.state, to) ? { kind: 'left', state: to } : null;
}

/** Queued again from scratch, under a new key: the mechanic's answer to a refusal. */
function sentAgain(entry: OutboxEntry, key: string, body: OutboxEntry['entry']): Moved | null {
  return kept(entry, 'queued', { key, entry: body, attempts: 0, nextAttemptAt: 0, lastError: null });
}

export function transition(entry: OutboxEntry, event: EntryEvent): Moved | null {
  switch (event.type) {
    case 'claimed':
      return entry.state === 'queued' ? kept(entry, 'sending') : null;
    case 'released':
      return entry.state === 'sending' ? kept(entry, 'queued') : null;
    case 'failed':
      if (entry.state !== 'sending') return null;
      return kept(entry, 'queued', {
        attempts: entry.attempts + 1,
        nextAttemptAt: event.nextAttemptAt,
        lastError: event.error,
      });
    case 'refused':
      if (entry.state !== 'sending') return null;
      return kept(entry, parkedState(event.error), { attempts: entry.attempts + 1, lastError: event.error });
    case 'session_lost':
      if (entry.state === 'waiting_for_sign_in' || !mayMove(entry.state, 'waiting_for_sign_in')) return null;
      return event.error && entry.state === 'sending'
        ? kept(entry, 'waiting_for_sign_in', { attempts: entry.attempts + 1, lastError: event.error })
        : kept(entry, 'waiting_for_sign_in');
    case 'signed_in':
      return entry.state === 'waiting_for_sign_in' ? kept(entry, 'queued', { nextAttemptAt: 0 }) : null;
    case 'stored':
      return left(entry, 'stored');
    case 'found_in_conflict':
      return entry.state === 'in_conflict' ? null : kept(entry, 'in_conflict', { lastError: CONFLICT_ERROR });
    case 'corrected':
      // Not one in conflict: the server holds a version of it already, so only a correction of that one
      // may go (recorded_as_correction); sent as a new entry, the vehicle would have it twice.
      return entry.state === 'refused' ? sentAgain(entry, event.key, event.entry) : null;
    case 'recorded_as_correction':
      return entry.state === 'in_conflict' ? sentAgain(entry, event.key, event.entry) : null;
    case 'discarded':
      return left(entry, 'discarded');
    case 'due_now':
      return entry.state === 'queued' ? kept(entry, 'queued', { nextAttemptAt: 0 }) : null;
  }
}

/** What an entry arrives with: everything but where it stands. */
export type Arriving = Omit<OutboxEntry, 'state' | 'attempts' | 'nextAttemptAt' | 'lastError'>;

/**
 * An entry arriving in the outbox: Insert (draft → queued), or a hand-over file's entry, which keeps the
 * last failure the other tablet heard and, if the server refused it there, is parked as that refusal says.
 */
export function arrival(
  value: Arriving,
  heard: { lastError: OutboxError | null; refused: boolean } | null = null,
): OutboxEntry {
  const lastError = heard?.lastError ?? null;
  if (heard?.refused) return { ...value, state: parkedState(lastError), attempts: 1, nextAttemptAt: 0, lastError };
  return { ...value, state: 'queued', attempts: 0, nextAttemptAt: 0, lastError };
}
