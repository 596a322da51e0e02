/**
 * Every state change of an entry is `transition(entry, event)` (src/lib/entries/transition.ts). Here a
 * world made only of it: an outbox shared by two tabs, a server that stores by Idempotency-Key, and a
 * mechanic. fast-check drives random sequences of what can happen (Insert, a send by either tab, its
 * answer: stored, lost, 5xx, 409, 422, 401; a tab dying mid-send, sign-out and sign-in, a history
 * refresh, a hand-over import, a correction, a discard) and checks after each step that:
 * - no entry is lost: each one the mechanic entered (or imported) is in the outbox once, on the server,
 *   or discarded by the mechanic;
 * - none is sent twice: the server never holds two records of one entry (a correction of what the
 *   server holds is the one other record an entry may have), and no two tabs ever send it at once;
 * - no state outside the table is reached: every move is one entry-state.ts allows.
 * Then the network heals and everything drains: nothing is left but what the mechanic must decide.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OutboxEntry, OutboxError, OutboxState } from '../../../../src/lib/db';
import { mayMove } from '../../../../src/lib/entries/entry-state';
import { arrival, transition, type EntryEvent } from '../../../../src/lib/entries/transition';

const PARTNER = 'partner-a';
const STATES: readonly OutboxState[] = ['queued', 'sending', 'waiting_for_sign_in', 'refused', 'in_conflict'];

type Answer = 'stored' | 'lost' | '5xx' | '409' | '422' | '401';

type Step =
  | { kind: 'insert'; odometer: number }
  | { kind: 'claim'; tab: number; pick: number }
  | { kind: 'answer'; tab: number; answer: Answer }
  | { kind: 'crash'; tab: number }
  | { kind: 'recover' }
  | { kind: 'sign-out' }
  | { kind: 'sign-in' }
  | { kind: 'refresh' }
  /** Another tablet's file: one of its entries, which that tablet may have sent already, or may have seen refused. */
  | { kind: 'import'; sentThere: boolean; refusedThere: boolean; odometer: number }
  /**
   * The other tablet sent an edited copy of one of our unsent entries (same key, other values). Not of a
   * refused one: every copy of it was refused under that key, and a correction takes a new key.
   */
  | { kind: 'edited-elsewhere'; pick: number }
  | { kind: 'correct'; pick: number }
  | { kind: 'record-as-correction'; pick: number }
  | { kind: 'discard'; pick: number }
  | { kind: 'send-now' };

const tab = fc.integer({ min: 0, max: 1 });
const pick = fc.nat({ max: 20 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('insert' as const), odometer: fc.integer({ min: 1, max: 999 }) }),
  },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('claim' as const), tab, pick }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      tab,
      answer: fc.constantFrom<Answer>('stored', 'lost', '5xx', '409', '422', '401'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('crash' as const), tab }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'recover' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'sign-out' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'sign-in' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'refresh' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('import' as const),
      sentThere: fc.boolean(),
      refusedThere: fc.boolean(),
      odometer: fc.integer({ min: 1, max: 999 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edited-elsewhere' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('correct' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('record-as-correction' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('discard' as const), pick }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'send-now' as const }) },
);

/** What the server stores under a key: the body, the entry it belongs to, and whether it corrects another record. */
interface ServerRecord {
  body: OutboxEntry['entry'];
  lineage: string;
  correction: boolean;
}

/**
 * A tab's request in flight: the entry as its claim left it. Stale once the entry left 'sending' by
 * something else (a 401 of another request parked it): its answer is then written only if it says the
 * server has the entry. The sender's lock and its passes (a pass waits for its sends) keep a tab from
 * claiming again while its request is in flight; the model lets a tab hold one claim only.
 */
interface Claim {
  key: string;
  attempts: number;
  stale: boolean;
}

const REFUSALS: Record<'409' | '422', OutboxError> = {
  '409': { code: 409, reason: 'already_corrected', message: '' },
  '422': { code: 422, reason: 'repair_type_not_found', message: '' },
};

class World {
  readonly outbox = new Map<string, OutboxEntry>();
  readonly server = new Map<string, ServerRecord>();
  /** The entry each key carries: one Insert keeps its lineage through corrections under new keys. */
  readonly lineageOf = new Map<string, string>();
  readonly lineages = new Set<string>();
  readonly discarded = new Set<string>();
  readonly claims: (Claim | null)[] = [null, null];
  /** Keys of corrections recorded from a conflict: the one other record an entry may have on the server. */
  readonly corrections = new Set<string>();
  private serial = 0;
  private seq = 0;

  /** The one door to the outbox, as outbox.ts's `move`: checks the move against the table and writes it. */
  apply(row: OutboxEntry, event: EntryEvent): boolean {
    const moved = transition(row, event);
    if (!moved) return false;
    const to = moved.kind === 'left' ? moved.state : moved.entry.state;
    if (row.state === 'sending' && event.type !== 'claimed') {
      for (const claim of this.claims) if (claim?.key === row.key) claim.stale = true;
    }
    if (to !== row.state && !mayMove(row.state, to)) throw new Error(`moved ${row.state} → ${to} on ${event.type}`);
    this.outbox.delete(row.key);
    if (moved.kind === 'kept') {
      if (!STATES.includes(moved.entry.state)) throw new Error(`unknown state ${moved.entry.state}`);
      if (moved.entry.key !== row.key) this.lineageOf.set(moved.entry.key, this.lineageOf.get(row.key)!);
      this.outbox.set(moved.entry.key, moved.entry);
    } else if (moved.state === 'discarded') {
      this.discarded.add(this.lineageOf.get(row.key)!);
    }
    return true;
  }

  newKey(): string {
    this.serial += 1;
    return `key-${this.serial}`;
  }

  body(odometer: number, corrects?: string): OutboxEntry['entry'] {
    const base = { kode_id: 'KODE00000A', odometer, repair_type_id: 'oil', consented: true as const, note: '' };
    return {
      ...base,
      recorded_at: '2026-12-01T08:00:00.000Z',
      ...(corrects ? { corrects, correction_reason: 'typo' as const } : {}),
    };
  }

  arrive(key: string, body: OutboxEntry['entry'], heard: { lastError: OutboxError | null; refused: boolean } | null) {
    this.seq += 1;
    this.lineageOf.set(key, key);
    this.lineages.add(key);
    this.outbox.set(
      key,
      arrival({ key, partnerId: PARTNER, entry: body, seq: this.seq, createdAt: body.recorded_at }, heard),
    );
  }

  /** The server receives a request: stores it under its key once, or says the key holds other values. */
  receive(row: OutboxEntry): 'stored' | 'conflict' {
    const held = this.server.get(row.key);
    if (!held) {
      const correction = this.corrections.has(row.key);
      this.server.set(row.key, { body: row.entry, lineage: this.lineageOf.get(row.key)!, correction });
      return 'stored';
    }
    return JSON.stringify(held.body) === JSON.stringify(row.entry) ? 'stored' : 'conflict';
  }

  nth(pickIndex: number, states: readonly OutboxState[]): OutboxEntry | undefined {
    const rows = [...this.outbox.values()].filter((row) => states.includes(row.state));
    return rows.length ? rows[pickIndex % rows.length] : undefined;
  }

  /** A tab takes the entry for sending, if it may be sent (the table says so). */
  claim(tabIndex: number, row: OutboxEntry) {
    if (this.apply(row, { type: 'claimed' }))
      this.claims[tabIndex] = { key: row.key, attempts: row.attempts, stale: false };
  }

  /** A tab's answer is written only while its claim holds (outbox.ts: stillClaimed); a stored answer whatever the state. */
  answer(tabIndex: number, answer: Answer) {
    const claim = this.claims[tabIndex];
    if (!claim) return;
    this.claims[tabIndex] = null;
    const sent = this.outbox.get(claim.key);
    if (!sent) return;
    const held = !claim.stale && sent.state === 'sending' && sent.attempts === claim.attempts ? sent : null;
    // A request that reaches the server is answered by what it holds under the key: stored (or replayed), or
    // in conflict; a refusal for another reason comes only for a key it does not hold.
    const answered = answer === 'stored' || answer === 'lost' || answer === '409' || answer === '422';
    const holds = this.server.has(sent.key);
    const reached = answer === 'stored' || answer === 'lost' || (answered && holds) ? this.receive(sent) : null;
    if (reached === 'stored' && answer !== 'lost') {
      this.apply(sent, { type: 'stored' });
      return;
    }
    if (!held) return;
    if (reached === 'conflict')
      this.apply(held, { type: 'refused', error: { code: 422, reason: 'idempotency_conflict', message: '' } });
    else if (answer === 'lost')
      this.apply(held, { type: 'failed', error: { code: 0, message: 'lost' }, nextAttemptAt: 1 });
    else if (answer === '5xx')
      this.apply(held, { type: 'failed', error: { code: 503, reason: 'unavailable', message: '' }, nextAttemptAt: 1 });
    else if (answer === '409' || answer === '422') this.apply(held, { type: 'refused', error: REFUSALS[answer] });
    else if (answer === '401') this.signOut(held);
  }

  signOut(own: OutboxEntry | null) {
    for (const row of [...this.outbox.values()]) {
      this.apply(
        row,
        row === own
          ? { type: 'session_lost', error: { code: 401, reason: 'unauthorized', message: '' } }
          : { type: 'session_lost' },
      );
    }
  }

  /** A history refresh: what the server holds under an entry's key is stored, or in conflict with it. */
  refresh() {
    for (const row of [...this.outbox.values()]) {
      const held = this.server.get(row.key);
      if (!held) continue;
      const same = JSON.stringify(held.body) === JSON.stringify(row.entry);
      this.apply(row, same ? { type: 'stored' } : { type: 'found_in_conflict' });
    }
  }

  run(s: Step) {
    switch (s.kind) {
      case 'insert':
        return this.arrive(this.newKey(), this.body(s.odometer), null);
      case 'claim': {
        if (this.claims[s.tab]) return;
        const row = this.nth(s.pick, STATES);
        if (row) this.claim(s.tab, row);
        return;
      }
      case 'answer':
        return this.answer(s.tab, s.answer);
      case 'crash':
        this.claims[s.tab] = null;
        return;
      case 'recover': {
        // Under the sender's lock nobody else sends: what a dead tab left sending is queued again.
        const live = new Set(this.claims.flatMap((claim) => (claim && !claim.stale ? [claim.key] : [])));
        for (const row of [...this.outbox.values()]) if (!live.has(row.key)) this.apply(row, { type: 'released' });
        return;
      }
      case 'sign-out':
        return this.signOut(null);
      case 'sign-in':
        for (const row of [...this.outbox.values()]) this.apply(row, { type: 'signed_in' });
        return;
      case 'refresh':
        return this.refresh();
      case 'import': {
        const key = this.newKey();
        const body = this.body(s.odometer);
        if (s.sentThere) this.server.set(key, { body, lineage: key, correction: false });
        const refused = s.refusedThere && !s.sentThere;
        return this.arrive(key, body, refused ? { lastError: REFUSALS['422'], refused } : null);
      }
      case 'edited-elsewhere': {
        const row = this.nth(s.pick, ['queued', 'sending', 'waiting_for_sign_in']);
        if (row && !this.server.has(row.key)) {
          this.server.set(row.key, {
            body: { ...row.entry, odometer: row.entry.odometer + 1 },
            lineage: this.lineageOf.get(row.key)!,
            correction: this.corrections.has(row.key),
          });
        }
        return;
      }
      case 'correct': {
        const row = this.nth(s.pick, STATES);
        if (row)
          this.apply(row, {
            type: 'corrected',
            key: this.newKey(),
            entry: { ...row.entry, odometer: row.entry.odometer + 10 },
          });
        return;
      }
      case 'record-as-correction': {
        const row = this.nth(s.pick, STATES);
        if (!row) return;
        const key = this.newKey();
        if (this.apply(row, { type: 'recorded_as_correction', key, entry: this.body(row.entry.odometer, row.key) }))
          this.corrections.add(key);
        return;
      }
      case 'discard': {
        const row = this.nth(s.pick, STATES);
        if (row) this.apply(row, { type: 'discarded' });
        return;
      }
      case 'send-now':
        for (const row of [...this.outbox.values()]) this.apply(row, { type: 'due_now' });
        return;
    }
  }

  check() {
    // No entry lost, none held twice on the tablet.
    const inOutbox = [...this.outbox.keys()].map((key) => this.lineageOf.get(key)!);
    expect(new Set(inOutbox).size, 'an entry is queued twice').toBe(inOutbox.length);
    const onServer = new Set([...this.server.values()].map((record) => record.lineage));
    for (const lineage of this.lineages) {
      const somewhere = inOutbox.includes(lineage) || onServer.has(lineage) || this.discarded.has(lineage);
      expect(somewhere, `entry ${lineage} is lost`).toBe(true);
    }
    // None sent twice: one record of each entry, besides a correction of it.
    const originals = [...this.server.values()].filter((record) => !record.correction).map((record) => record.lineage);
    expect(new Set(originals).size, 'an entry is stored twice').toBe(originals.length);
    // No two tabs send one entry at once.
    const claimed = this.claims.flatMap((claim) => (claim && !claim.stale ? [claim.key] : []));
    expect(new Set(claimed).size, 'two tabs send one entry').toBe(claimed.length);
  }

  /** The network heals, the partner signs in, every tab sends until nothing goes any more. */
  drain() {
    this.claims.fill(null);
    this.run({ kind: 'sign-in' });
    this.run({ kind: 'recover' });
    for (let round = 0; round < 100; round += 1) {
      const row = this.nth(0, ['queued']);
      if (!row) break;
      this.claim(0, row);
      this.answer(0, 'stored');
      this.check();
    }
    this.refresh();
  }
}

describe('an entry’s transitions, under any sequence of events', () => {
  it('lose nothing, send nothing twice and stay within the table', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        const world = new World();
        for (const s of steps) {
          world.run(s);
          world.check();
        }
        world.drain();
        world.check();
        // Only what the mechanic must decide stays: refused entries, or entries in conflict.
        for (const row of world.outbox.values()) expect(['refused', 'in_conflict']).toContain(row.state);
      }),
      { numRuns: 5000 },
    );
  });
});
