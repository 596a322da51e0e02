/** An entry's life: its state read from the outbox or the history, the moves allowed, the history's labels. */
import { describe, expect, it } from 'vitest';
import type { OutboxError, OutboxState } from '../../../../src/lib/db';
import {
  entryStatusLabel,
  isQueued,
  mayMove,
  outboxEntryState,
  storedEntryState,
  type EntryState,
} from '../../../../src/lib/sync/entry-state';

const refusal: OutboxError = { code: 422, reason: 'odometer_invalid', message: 'Kilométrage invalide' };
const conflict: OutboxError = { code: 422, reason: 'idempotency_conflict', message: '' };

describe("an entry's state", () => {
  it.each<[OutboxState, OutboxError | null, EntryState]>([
    ['pending', null, 'queued'],
    ['pending', { code: 0, message: 'timeout' }, 'queued'],
    ['sending', null, 'sending'],
    ['waiting_for_sign_in', null, 'waiting_for_sign_in'],
    ['rejected', refusal, 'refused'],
    ['rejected', conflict, 'in_conflict'],
  ])('an outbox row %s (last error %j) is %s', (state, lastError, expected) => {
    expect(outboxEntryState({ state, lastError })).toBe(expected);
  });

  it('is queued, the one state a sender claims from, only while pending', () => {
    const states: OutboxState[] = ['pending', 'sending', 'waiting_for_sign_in', 'rejected'];
    expect(states.map((state) => isQueued({ state, lastError: null }))).toEqual([true, false, false, false]);
  });

  it('a stored repair is stored until a correction supersedes it', () => {
    expect(storedEntryState({ superseded_by: null })).toBe('stored');
    expect(storedEntryState({ superseded_by: 'repair-2' })).toBe('superseded');
  });

  it('moves only along its life', () => {
    expect(mayMove('queued', 'sending')).toBe(true);
    expect(mayMove('sending', 'stored')).toBe(true);
    expect(mayMove('sending', 'queued')).toBe(true);
    expect(mayMove('refused', 'queued')).toBe(true);
    expect(mayMove('in_conflict', 'discarded')).toBe(true);
    expect(mayMove('stored', 'superseded')).toBe(true);
    // Parked entries are not sent as they are; a stored one never goes back; nothing is sent twice at once.
    expect(mayMove('waiting_for_sign_in', 'sending')).toBe(false);
    expect(mayMove('refused', 'sending')).toBe(false);
    expect(mayMove('refused', 'stored')).toBe(false);
    expect(mayMove('sending', 'sending')).toBe(false);
    expect(mayMove('stored', 'queued')).toBe(false);
    expect(mayMove('queued', 'discarded')).toBe(false);
  });

  it('has the label the history shows', () => {
    expect(
      (['queued', 'sending', 'waiting_for_sign_in', 'refused', 'in_conflict', 'stored', 'superseded'] as const).map(
        entryStatusLabel,
      ),
    ).toEqual(['pending', 'sending', 'waiting_for_sign_in', 'rejected', 'rejected', 'synced', 'synced']);
    expect(entryStatusLabel('draft')).toBeNull();
    expect(entryStatusLabel('discarded')).toBeNull();
  });
});
