/** An entry's life: its state as stored (and as stored before version 7), the moves allowed, the history's labels. */
import { describe, expect, it } from 'vitest';
import type { OutboxError, OutboxState } from '../../../../src/lib/db';
import {
  entryStatusLabel,
  isQueued,
  mayMove,
  parkedState,
  storedEntryState,
} from '../../../../src/lib/entries/entry-state';
import { stateSince7 } from '../../../../src/lib/entries/outbox-meta';

const refusal: OutboxError = { code: 422, reason: 'odometer_invalid', message: 'Kilométrage invalide' };
const conflict: OutboxError = { code: 422, reason: 'idempotency_conflict', message: '' };

describe("an entry's state", () => {
  it('a refusal parks it refused, or in conflict when the server holds its key with other values', () => {
    expect(parkedState(refusal)).toBe('refused');
    expect(parkedState(conflict)).toBe('in_conflict');
  });

  it.each<[string, OutboxError | null, OutboxState]>([
    ['pending', null, 'queued'],
    ['pending', { code: 0, message: 'timeout' }, 'queued'],
    ['sending', null, 'sending'],
    ['waiting_for_sign_in', null, 'waiting_for_sign_in'],
    ['rejected', refusal, 'refused'],
    ['rejected', conflict, 'in_conflict'],
  ])('stored as %s before version 7 (last error %j), it is %s since', (state, lastError, expected) => {
    expect(stateSince7({ state: state as Parameters<typeof stateSince7>[0]['state'], lastError })).toBe(expected);
  });

  it('is queued, the one state a sender claims from, only while queued', () => {
    const states: OutboxState[] = ['queued', 'sending', 'waiting_for_sign_in', 'refused', 'in_conflict'];
    expect(states.map((state) => isQueued({ state }))).toEqual([true, false, false, false, false]);
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
    // A history refresh may find a parked entry on the server as it is (sent from another tablet).
    expect(mayMove('refused', 'stored')).toBe(true);
    // Parked entries are not sent as they are; a stored one never goes back; nothing is sent twice at once.
    expect(mayMove('waiting_for_sign_in', 'sending')).toBe(false);
    expect(mayMove('refused', 'sending')).toBe(false);
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
