/**
 * The outbox under any interleaving (docs/ARCHITECTURE.md#the-offline-model-in-practice): the mechanic enters readings for several
 * vehicles in two tabs, each tab running a sender (one at a time across tabs, through Web Locks or
 * the IndexedDB lease), while the network fails, answers are lost, the server answers 5xx, 429 with
 * Retry-After or 401 (then the partner signs in), tabs die mid-send (a new one opens on the same
 * database) and time passes. fast-check picks the steps and the order in which the server's answers
 * and the mechanic's actions arrive. At every step an entry is either queued or in the history, never
 * both and never neither; once the network heals and everything drains, every entry is stored once
 * under its own key and is in the history once, the outbox is empty, and each vehicle's readings
 * reached the server in the order they were entered.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PortalDatabase, type OutboxEntry } from '../../../../src/lib/db';
import type { RepairInput } from '../../../../src/lib/entries/outbox';
import type { TransportResult } from '../../../../src/lib/entries/classify';
import { SyncEngine, type KickReason, type Scheduler } from '../../../../src/lib/entries/engine';
import { leaseLock, webLock, type SenderLock } from '../../../../src/lib/entries/lock';
import { SYNC_POLICY } from '../../../../src/lib/entries/policy';
import {
  type Behaviour,
  FakeSession,
  inserter,
  ManualScheduler,
  repair,
  sequentialUuids,
  ServerDouble,
} from './support';

const PARTNER = 'partner-a';
const VEHICLES = ['KODE00000A', 'KODE00000B', 'KODE00000C'];

type Step =
  | { kind: 'insert'; tab: number; vehicle: number }
  /** How the server answers the next request, whichever tab makes it. */
  | { kind: 'answer'; behaviour: Behaviour }
  /** The tab making the next request dies, before the request leaves or once the server has stored it. */
  | { kind: 'crash'; afterStore: boolean }
  | { kind: 'kick'; tab: number; reason: KickReason }
  | { kind: 'sign-in'; tab: number }
  | { kind: 'wait'; ms: number };

const tabIndex = fc.integer({ min: 0, max: 1 });

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      tab: tabIndex,
      vehicle: fc.integer({ min: 0, max: VEHICLES.length - 1 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      behaviour: fc.oneof(
        fc.constant<Behaviour>('network'),
        fc.constant<Behaviour>('store-then-lose-answer'),
        fc.constantFrom<Behaviour>({ code: 500, reason: 'internal' }, { code: 503, reason: 'internal' }),
        fc
          .integer({ min: 1, max: 120 })
          .map((seconds): Behaviour => ({ code: 429, reason: 'rate_limited', retryAfterMs: seconds * 1000 })),
        fc.constant<Behaviour>({ code: 401, reason: 'unauthorized' }),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('crash' as const), afterStore: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('kick' as const),
      tab: tabIndex,
      reason: fc.constantFrom<KickReason>('online', 'visible', 'manual'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sign-in' as const), tab: tabIndex }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 180_000 }) }),
  },
);

/** One turn of the event loop: IndexedDB (fake-indexeddb) moves on by setImmediate. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

type LockKind = 'web-locks' | 'lease';

/** Web Locks as a browser grants them: one holder per name, in request order; a tab's locks go when it dies. */
class BrowserLocks {
  private readonly tails = new Map<string, Promise<void>>();

  grant<T>(name: string, callback: LockGrantedCallback<T>, died: Promise<void>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    let release = () => undefined as void;
    this.tails.set(name, new Promise<void>((resolve) => (release = resolve)));
    return previous.then(() => {
      const held = Promise.resolve().then(() => callback({ name, mode: 'exclusive' }));
      void Promise.race([held, died]).then(release, release);
      return held;
    });
  }
}

/** One tab's view of the browser's locks. */
class TabLocks implements LockManager {
  constructor(
    private readonly browser: BrowserLocks,
    private readonly died: Promise<void>,
  ) {}

  query(): Promise<LockManagerSnapshot> {
    return Promise.resolve({ held: [], pending: [] });
  }

  request<T>(name: string, callback: LockGrantedCallback<T>): Promise<T>;
  request<T>(name: string, options: LockOptions, callback: LockGrantedCallback<T>): Promise<T>;
  request<T>(name: string, second: LockOptions | LockGrantedCallback<T>, third?: LockGrantedCallback<T>): Promise<T> {
    const callback = typeof second === 'function' ? second : third;
    if (!callback) throw new TypeError('request() needs a callback');
    return this.browser.grant(name, callback, this.died);
  }
}

/** A browser tab: its own connection to the database, its own sender, its own timers. */
class Tab {
  readonly db: PortalDatabase;
  readonly engine: SyncEngine;
  /** Insert, as the mechanic presses it in this tab. */
  readonly insert: (partnerId: string, input: RepairInput) => Promise<OutboxEntry>;
  dead = false;
  /** Settles when the tab dies. */
  readonly died: Promise<void>;
  private markDied = () => undefined as void;

  constructor(
    readonly id: string,
    tablet: Tablet,
  ) {
    this.db = new PortalDatabase(tablet.name);
    this.died = new Promise<void>((resolve) => (this.markDied = resolve));
    const { clock } = tablet;
    const timers: Scheduler = {
      now: clock.now,
      setTimeout: (callback, ms) => clock.setTimeout(() => this.dead || callback(), ms),
      clearTimeout: clock.clearTimeout,
    };
    this.engine = new SyncEngine({
      db: this.db,
      transport: (row) => tablet.send(this, row),
      session: new FakeSession(PARTNER),
      lock: tablet.watched(
        this,
        tablet.lockKind === 'web-locks'
          ? webLock(new TabLocks(tablet.locks, this.died))
          : leaseLock(this.db, { owner: id, now: clock.now }),
      ),
      scheduler: timers,
      random: tablet.random,
      uuid: tablet.uuid,
    });
    this.insert = inserter(this.engine, this.db, clock.now, tablet.uuid);
  }

  /**
   * The tab is gone: no timer of its fires, no request of its is answered, its connection is closed
   * (what it had not committed is lost); the browser frees its Web Lock, while a lease it held stays
   * until it expires.
   */
  die() {
    this.dead = true;
    this.engine.stop();
    this.db.close();
    this.markDied();
  }

  /** Settles when `work` has, or when the tab dies. */
  track(work: Promise<unknown>): Promise<unknown> {
    return Promise.race([work, this.died]);
  }
}

let runs = 0;

/**
 * The tablet (two tabs on one database), the server, the clock, and fast-check's scheduler, which
 * decides when each answer arrives and when the mechanic's next action happens relative to them.
 */
class Tablet {
  readonly clock = new ManualScheduler();
  readonly server = new ServerDouble();
  readonly name = `outbox-property-${(runs += 1)}-${Math.random().toString(36).slice(2)}`;
  /** A connection that only reads, to check the invariants. */
  readonly observer = new PortalDatabase(this.name);
  readonly uuid = sequentialUuids();
  readonly locks = new BrowserLocks();
  readonly inserted: OutboxEntry[] = [];
  readonly tabs: Tab[];
  /** What broke "queued or synced, never both, never neither" while things were in flight. */
  readonly violations: string[] = [];
  /** Times a second live sender got in (see watched()). */
  readonly overlaps: string[] = [];
  /** The live tabs inside the lock, with when they last took or renewed it. */
  private readonly holders = new Map<Tab, number>();
  /** Work started by the mechanic's actions (a sign-in's release, a kick, a new tab's start). */
  private work: Promise<unknown>[] = [];
  private opened = 0;
  private crashNext: { afterStore: boolean } | null = null;
  /** Sign-ins so far: each one gives the browser a new refresh cookie. */
  private signIns = 0;

  constructor(
    readonly lockKind: LockKind,
    private readonly scheduler: fc.Scheduler,
    readonly random: () => number,
  ) {
    this.tabs = [this.open(), this.open()];
  }

  private open(): Tab {
    this.opened += 1;
    return new Tab(`tab-${this.opened}`, this);
  }

  /**
   * Notes each time a tab gets into the lock while another live tab still holds it: with Web Locks,
   * whenever another is inside; with the lease, only while the other's lease has not lapsed (a tab
   * frozen for a minute without renewing it loses it, by design). Renewal times are taken before the
   * renewal, so a lease counted as live really was.
   */
  watched(tab: Tab, lock: SenderLock): SenderLock {
    return {
      run: (task) => {
        const asked = this.clock.now();
        return lock.run(async (keepAlive) => {
          const now = this.clock.now();
          for (const [other, renewedAt] of this.holders) {
            if (this.lockKind === 'web-locks' || now < renewedAt + SYNC_POLICY.leaseTtlMs) {
              this.overlaps.push(`${tab.id} got in while ${other.id} held the lock`);
            }
          }
          if (!tab.dead) this.holders.set(tab, asked);
          try {
            await task(async () => {
              const renewing = this.clock.now();
              const alive = await keepAlive();
              if (alive && this.holders.has(tab)) this.holders.set(tab, renewing);
              return alive;
            });
          } finally {
            this.holders.delete(tab);
          }
        });
      },
    };
  }

  send(tab: Tab, row: OutboxEntry): Promise<TransportResult> {
    const never = new Promise<TransportResult>(() => undefined);
    if (tab.dead) return never;
    const crash = this.crashNext;
    if (crash) {
      this.crashNext = null;
      if (crash.afterStore) void this.server.receive(row, 'store');
      this.holders.delete(tab);
      tab.die();
      // The mechanic opens the portal again: a new tab, a new sender, on the same database.
      const reopened = this.open();
      this.tabs[this.tabs.indexOf(tab)] = reopened;
      this.work.push(reopened.track(reopened.engine.kick('start')));
      return never;
    }
    const signInsAtSend = this.signIns;
    return this.scheduler.schedule(this.server.transport(row), `answer to ${row.key.slice(-3)}`).then((result) =>
      // The API client answers a 401 with one refresh: when the partner has signed in meanwhile, the
      // refresh finds the new session and the request goes again under it.
      result.code === 401 && this.signIns !== signInsAtSend ? this.server.receive(row, 'store') : result,
    );
  }

  /**
   * Runs the mechanic's actions in order, interleaved with the server's answers as fast-check
   * chooses, then lets everything they started finish.
   */
  async act(steps: Step[]): Promise<void> {
    const sequence = this.scheduler.scheduleSequence(
      steps.flatMap((step) => [
        { label: JSON.stringify(step), builder: () => this.apply(step) },
        { label: 'check', builder: () => this.checkEachEntryQueuedOrSynced() },
      ]),
    );
    await this.settle(sequence.task);
    // An action that threw would have silently cut the sequence short.
    expect(sequence).toMatchObject({ done: true, faulty: false });
  }

  /** One action; it returns once started, not once everything it set off has finished. */
  private async apply(step: Step): Promise<void> {
    const tab = 'tab' in step ? this.tabs[step.tab]! : null;
    switch (step.kind) {
      case 'insert': {
        const vehicle = VEHICLES[step.vehicle] ?? VEHICLES[0]!;
        this.inserted.push(await tab!.insert(PARTNER, repair(vehicle, this.inserted.length)));
        return;
      }
      case 'answer':
        this.server.next(step.behaviour);
        return;
      case 'crash':
        this.crashNext = { afterStore: step.afterStore };
        return;
      case 'kick':
        this.work.push(tab!.track(tab!.engine.kick(step.reason)));
        return;
      case 'sign-in':
        this.signIns += 1;
        this.work.push(tab!.track(tab!.engine.resume(PARTNER)));
        return;
      case 'wait':
        // Time passes with requests still unanswered: timers fire (retries, timeouts, lease retries).
        return this.clock.advance(step.ms, () => this.untilBlocked());
    }
  }

  /** Releases the server's answers (in an order fast-check picks) until `until` and all it set off are done. */
  private async settle(until?: Promise<unknown>): Promise<void> {
    let done = false;
    const quiet = (async () => {
      await until;
      do {
        while (this.work.length > 0) await Promise.all(this.work.splice(0));
        await Promise.all(this.tabs.map((tab) => tab.track(tab.engine.idle())));
        // A tab that died meanwhile was opened again, and its start is new work.
      } while (this.work.length > 0);
    })().then(() => {
      done = true;
    });
    while (!done) {
      await this.untilBlocked();
      if (this.scheduler.count() > 0) await this.scheduler.waitNext(1);
    }
    await quiet;
  }

  /**
   * Lets the tabs run until each is idle or waiting for an answer (nothing new scheduled for a while),
   * so that the next action or answer fast-check picks lands in the middle of their work.
   */
  private async untilBlocked(): Promise<void> {
    let scheduled = this.scheduler.count();
    for (let still = 0; still < 20; still++) {
      await nextTurn();
      if (this.scheduler.count() !== scheduled) {
        scheduled = this.scheduler.count();
        still = 0;
      }
    }
  }

  /** The network heals: no more failures or crashes; the partner signs in; time passes until all is sent. */
  async heal(): Promise<void> {
    this.server.script.length = 0;
    this.crashNext = null;
    await this.act([{ kind: 'sign-in', tab: 0 }]);
    for (let round = 0; round < 60 && (await this.observer.outbox.count()) > 0; round++) {
      await this.act(this.tabs.map((_, tab) => ({ kind: 'kick', tab, reason: 'online' }) as const));
      await this.clock.advance(60_000, () => this.settle());
    }
  }

  /** Each entry entered is either queued or in the history: never both, never neither. */
  private async checkEachEntryQueuedOrSynced(): Promise<void> {
    const [queued, synced] = await this.observer.transaction('r', this.observer.outbox, this.observer.history, () =>
      Promise.all([this.observer.outbox.toCollection().primaryKeys(), this.observer.history.toArray()]),
    );
    const places = [...queued, ...synced.map((row) => row.idempotency_key)].sort();
    const expected = this.inserted.map((entry) => entry.key).sort();
    if (JSON.stringify(places) !== JSON.stringify(expected)) {
      this.violations.push(`entries ${JSON.stringify(expected)} found at ${JSON.stringify(places)}`);
    }
  }

  async close(): Promise<void> {
    for (const tab of this.tabs) tab.die();
    await this.observer.delete();
  }
}

/** A reproducible random source for the backoff's jitter. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** What must hold once the network has healed and everything has drained. */
async function expectEverythingStoredOnceInOrder(tablet: Tablet): Promise<void> {
  const { server, observer, inserted } = tablet;
  const keys = inserted.map((entry) => entry.key).sort();
  expect(tablet.violations).toEqual([]);
  expect(await observer.outbox.toArray()).toEqual([]);
  // Stored once each, under the key it was entered with (a key the tablet made up would show here).
  expect([...server.stored.values()].map(({ record }) => record.idempotency_key).sort()).toEqual(keys);
  const history = await observer.history.toArray();
  expect(history.map((row) => row.idempotency_key).sort()).toEqual(keys);
  for (const row of history) {
    expect(server.stored.get(`${PARTNER}:${row.idempotency_key}`)?.record.id).toBe(row.id);
  }
  const seqOf = new Map(inserted.map((entry) => [entry.key, entry.seq]));
  for (const vehicle of VEHICLES) {
    const own = inserted.filter((entry) => entry.entry.kode_id === vehicle);
    const storedSeqs = [...server.stored.values()]
      .filter(({ record }) => record.vehicle.kode_id === vehicle)
      .map(({ record }) => seqOf.get(record.idempotency_key));
    expect(storedSeqs).toEqual(own.map((entry) => entry.seq));
    // No entry went out before the older ones of its vehicle were stored (a late copy of a request the
    // tablet gave up on may still reach the server afterwards: the server answers it as a replay).
    const firstSent = [...new Set(server.calls.map((call) => call.key))]
      .filter((key) => own.some((entry) => entry.key === key))
      .map((key) => seqOf.get(key));
    expect(firstSent).toEqual(own.map((entry) => entry.seq).filter((seq) => firstSent.includes(seq)));
  }
}

describe('the outbox under any interleaving of failures, lost answers, crashes and two senders', () => {
  it.each([
    ['Web Locks', 'web-locks'],
    ['the IndexedDB lease', 'lease'],
  ] as const)(
    'with %s: every entry is stored once under its key, in the history once, the outbox empties, each vehicle in order',
    async (_label, lockKind) => {
      await fc.assert(
        fc.asyncProperty(
          fc.scheduler(),
          fc.array(step, { minLength: 10, maxLength: 50, size: 'max' }),
          fc.integer(),
          async (scheduler, steps, seed) => {
            const tablet = new Tablet(lockKind, scheduler, seeded(seed));
            try {
              await tablet.act(steps);
              await tablet.heal();
              await expectEverythingStoredOnceInOrder(tablet);
              expect(tablet.overlaps).toEqual([]);
            } finally {
              await tablet.close();
            }
          },
        ),
        { numRuns: 60 },
      );
    },
    60_000,
  );
});
