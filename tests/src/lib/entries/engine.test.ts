import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutboxEntry, PortalDatabase } from '../../../../src/lib/db';
import { backoffDelay } from '../../../../src/lib/entries/backoff';
import { SyncEngine, type SyncEngineOptions } from '../../../../src/lib/entries/engine';
import { leaseLock, type SenderLock } from '../../../../src/lib/entries/lock';
import { SYNC_POLICY } from '../../../../src/lib/entries/policy';
import {
  AnswersByHand,
  FakeSession,
  flush,
  freshDatabase,
  inserter,
  ManualScheduler,
  memoryLock,
  networkFailure,
  repair,
  sequentialUuids,
  ServerDouble,
  unauthorized,
} from './support';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function setup(overrides: Partial<SyncEngineOptions> = {}) {
  const db = overrides.db ?? freshDatabase();
  const clock = new ManualScheduler();
  const server = new ServerDouble();
  const session = new FakeSession();
  server.signedIn = session.partnerId;
  const uuid = sequentialUuids();
  const engine = new SyncEngine({
    db,
    transport: server.transport,
    session,
    lock: memoryLock(),
    scheduler: clock,
    random: () => 0.5,
    uuid,
    ...overrides,
  });
  const enqueue = inserter(engine, db, clock.now, uuid);
  cleanups.push(async () => {
    engine.stop();
    await engine.idle();
    db.close();
    await db.delete();
  });
  const settle = () => engine.idle();
  return { db, clock, server, session, engine, settle, enqueue };
}

/**
 * A tab closed while sending: its engine stops and the request it made never answers. `reached`
 * runs first, as the server receiving the request would.
 */
function tabThatDiesWhileSending(db: PortalDatabase, reached: (row: OutboxEntry) => void = () => undefined) {
  const clock = new ManualScheduler();
  const tab: SyncEngine = new SyncEngine({
    db,
    transport: (row) => {
      reached(row);
      tab.stop();
      return new Promise(() => undefined);
    },
    session: new FakeSession(),
    lock: memoryLock(),
    scheduler: clock,
  });
  return { enqueue: inserter(tab, db, clock.now, sequentialUuids('00000000-0000-4000-8000-d')) };
}

async function outbox(db: PortalDatabase) {
  return db.outbox.orderBy('seq').toArray();
}

async function stateOf(db: PortalDatabase, key: string) {
  return (await db.outbox.get(key))?.state;
}

/** Settles once `check` holds; fails if it never does. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let turn = 0; turn < 200; turn++) {
    if (await check()) return;
    await flush();
  }
  throw new Error('condition never met');
}

/** Entries queued while signed out, so that nothing goes before the test kicks. */
async function queuedWhileSignedOut({ engine, session, enqueue }: ReturnType<typeof setup>, kodeIds: string[]) {
  const partner = session.current;
  session.current = null;
  const entries = [];
  for (const [i, kodeId] of kodeIds.entries()) entries.push(await enqueue('partner-a', repair(kodeId, 1000 + i)));
  await engine.idle();
  session.current = partner;
  return entries.map((entry) => entry.key);
}

describe('outbox engine: what each answer does to a queued entry', () => {
  it('201: the entry leaves the outbox and the stored repair joins the history, in one step', async () => {
    const { db, server, settle, clock, enqueue } = setup();
    const entry = await enqueue('partner-a', repair('KODE000001', 120_000));
    await settle();
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]).toMatchObject({ key: entry.key, body: { kode_id: 'KODE000001', odometer: 120_000 } });
    expect(server.calls[0]?.body.recorded_at).toBe(new Date(clock.time).toISOString());
    expect(await outbox(db)).toEqual([]);
    const history = await db.history.toArray();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      partnerId: 'partner-a',
      odometer: 120_000,
      recorded_at: entry.entry.recorded_at,
    });
  });

  it('200 replay: a key the server already stored is acknowledged the same way', async () => {
    const { db, engine, server, settle, enqueue } = setup();
    const entry = await enqueue('partner-a', repair('KODE000001', 1000));
    await settle();
    // The same row again (as if the tablet had not seen the first answer): the server replays.
    await db.outbox.add({ ...entry, state: 'queued' });
    await engine.kick();
    expect(server.calls.map((call) => call.key)).toEqual([entry.key, entry.key]);
    expect(server.stored.size).toBe(1);
    expect(await outbox(db)).toEqual([]);
    expect(await db.history.count()).toBe(1);
  });

  it.each([
    ['the history write', (db: PortalDatabase) => vi.spyOn(db.history, 'put')],
    ['the removal from the outbox', (db: PortalDatabase) => vi.spyOn(db.outbox, 'delete')],
  ])(
    '201 but %s fails: the entry stays queued and out of the history, goes again under its key and is kept once',
    async (_write, spy) => {
      const errors: unknown[] = [];
      const { db, enqueue, server, settle, clock } = setup({ onError: (error) => errors.push(error) });
      // One of the acknowledgement's two writes fails (storage full, a browser bug): neither may stay.
      const failing = spy(db).mockRejectedValueOnce(new Error('QuotaExceededError'));
      const entry = await enqueue('partner-a', repair('KODE000001', 1000));
      await settle();
      expect(server.stored.size).toBe(1);
      expect(errors).toEqual([new Error('QuotaExceededError')]);
      expect(await outbox(db)).toMatchObject([{ key: entry.key }]);
      expect(await db.history.count()).toBe(0);

      failing.mockRestore();
      await clock.advance(SYNC_POLICY.errorRetryMs, settle);
      expect(server.keysSent()).toEqual([entry.key, entry.key]);
      expect(server.answers).toEqual([201, 200]);
      expect(await outbox(db)).toEqual([]);
      expect((await db.history.toArray()).map((row) => row.idempotency_key)).toEqual([entry.key]);
    },
  );

  it('network failure: the entry stays pending with a backoff, then goes', async () => {
    const { db, server, settle, clock, enqueue } = setup();
    server.next('network');
    await enqueue('partner-a', repair('KODE000001', 1000));
    await settle();
    const [row] = await outbox(db);
    expect(row).toMatchObject({ state: 'queued', attempts: 1, lastError: { code: 0 } });
    // random 0.5 × base 2 s
    expect(row?.nextAttemptAt).toBe(clock.time + 1000);
    await clock.advance(999, settle);
    expect(server.calls).toHaveLength(1);
    await clock.advance(1, settle);
    expect(server.calls).toHaveLength(2);
    expect(await outbox(db)).toEqual([]);
  });

  it('timeout: a send that never answers counts as a network failure and is sent again', async () => {
    const { db, server, clock, settle, enqueue } = setup();
    server.next('hang');
    await enqueue('partner-a', repair('KODE000001', 1000));
    await eventually(async () => (await outbox(db))[0]?.state === 'sending');
    await clock.advance(SYNC_POLICY.sendTimeoutMs, flush);
    await settle();
    const [row] = await outbox(db);
    expect(row).toMatchObject({ state: 'queued', attempts: 1, lastError: { code: 0, message: 'timeout' } });
    await clock.advance(1000, settle);
    expect(server.calls).toHaveLength(2);
    expect(await outbox(db)).toEqual([]);
  });

  it('500: stays pending and is retried after the backoff', async () => {
    const { db, server, settle, clock, enqueue } = setup();
    server.next({ code: 500, reason: 'internal', message: 'Erreur interne' });
    await enqueue('partner-a', repair('KODE000001', 1000));
    await settle();
    expect((await outbox(db))[0]).toMatchObject({ state: 'queued', attempts: 1, lastError: { code: 500 } });
    await clock.advance(1000, settle);
    expect(await outbox(db)).toEqual([]);
  });

  it('an answer that is not the API envelope (a proxy or Wi-Fi login page) is retried, not rejected', async () => {
    // The client maps a non-JSON answer to code 400, type 'other', without the reason the API always gives.
    const { db, settle, enqueue } = setup({
      transport: async () => ({ code: 400, status: 'error', error: { type: 'other', message: '<html>Wi-Fi</html>' } }),
    });
    await enqueue('partner-a', repair('KODE000001', 1000));
    await settle();
    expect((await outbox(db))[0]).toMatchObject({ state: 'queued', attempts: 1, lastError: { code: 400 } });
  });

  it('429: honours Retry-After', async () => {
    const { db, engine, server, settle, clock, enqueue } = setup();
    server.next({ code: 429, reason: 'rate_limited', retryAfterMs: 30_000 });
    await enqueue('partner-a', repair('KODE000001', 1000));
    await settle();
    expect((await outbox(db))[0]).toMatchObject({ state: 'queued', attempts: 1, nextAttemptAt: clock.time + 30_000 });
    await clock.advance(29_999, settle);
    expect(server.calls).toHaveLength(1);
    // Even "back online" does not cut a server's Retry-After short.
    await engine.kick('online');
    expect(server.calls).toHaveLength(1);
    await clock.advance(1, settle);
    expect(server.calls).toHaveLength(2);
    expect(await outbox(db)).toEqual([]);
  });

  it('401: entries wait for the next sign-in, visibly, and go when the partner signs in again', async () => {
    const { db, engine, server, settle, clock, session, enqueue } = setup();
    server.next({ code: 401, reason: 'unauthorized', message: 'Session expirée' });
    await enqueue('partner-a', repair('KODE000001', 1000));
    await settle();
    await enqueue('partner-a', repair('KODE000002', 2000));
    await settle();
    const rows = await outbox(db);
    expect(rows.map((row) => row.state)).toEqual(['waiting_for_sign_in', 'queued']);
    expect(rows[0]?.lastError).toMatchObject({ code: 401, message: 'Session expirée' });
    // Sending has stopped: no retry, whatever happens, until a sign-in.
    await engine.kick('online');
    await clock.advance(10 * 60_000, settle);
    expect(server.calls).toHaveLength(1);

    session.current = 'partner-a';
    await engine.resume('partner-a');
    expect(server.calls).toHaveLength(3);
    expect(await outbox(db)).toEqual([]);
  });

  it('401 while the session could not reach the server to refresh: not a sign-out, retried later', async () => {
    const { db, server, settle, session, enqueue } = setup();
    session.isOffline = true;
    server.next({ code: 401, reason: 'unauthorized' });
    await enqueue('partner-a', repair('KODE000001', 1000));
    await settle();
    expect((await outbox(db))[0]).toMatchObject({ state: 'queued', attempts: 1 });
  });

  it.each([
    [400, 'recorded_at_out_of_range', 'La date de saisie est trop ancienne ou dans le futur', 'refused'],
    [404, 'vehicle_not_found', 'Véhicule introuvable', 'refused'],
    [422, 'idempotency_conflict', 'Conflit', 'in_conflict'],
  ])('%i: rejected with the server message and reason code, never retried', async (code, reason, message, state) => {
    const { db, engine, server, settle, clock, enqueue } = setup();
    server.next({ code, reason, message, ...(code === 400 ? { fields: { recorded_at: message } } : {}) });
    await enqueue('partner-a', repair('KODE000001', 1000));
    await settle();
    const [row] = await outbox(db);
    expect(row?.state).toBe(state);
    expect(row?.lastError).toEqual({
      code,
      reason,
      message,
      ...(code === 400 ? { fields: { recorded_at: message } } : {}),
    });
    await engine.kick('online');
    await clock.advance(60 * 60_000, settle);
    expect(server.calls).toHaveLength(1);
  });
});

describe('outbox engine: timing, order and exclusivity', () => {
  it('backs off exponentially with full jitter, capped at 5 minutes', async () => {
    expect(backoffDelay(1, () => 0.999, SYNC_POLICY.backoff)).toBe(1998);
    expect(backoffDelay(2, () => 0.999, SYNC_POLICY.backoff)).toBe(3996);
    expect(backoffDelay(3, () => 0.25, SYNC_POLICY.backoff)).toBe(2000);
    expect(backoffDelay(20, () => 0.999, SYNC_POLICY.backoff)).toBe(Math.floor(0.999 * SYNC_POLICY.backoff.capMs));
    expect(backoffDelay(1, () => 0, SYNC_POLICY.backoff)).toBe(SYNC_POLICY.backoff.minMs);

    const draws = [0.999, 0.999, 0.5, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999];
    const { db, server, settle, clock, enqueue } = setup({ random: () => draws.shift() ?? 1 });
    server.next(...Array.from({ length: 10 }, () => 'network' as const));
    await enqueue('partner-a', repair('KODE000001', 1000));
    await settle();
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt++) {
      const row = (await outbox(db))[0]!;
      expect(row.attempts).toBe(attempt);
      waits.push(row.nextAttemptAt - clock.time);
      await clock.advance(row.nextAttemptAt - clock.time, settle);
    }
    expect(waits).toEqual([1998, 3996, 4000, 15984, 31968, 63936, 127872, 255744, 299700, 299700]);
    expect(await outbox(db)).toEqual([]);
    expect(server.calls).toHaveLength(11);
  });

  it("keeps each vehicle's order and sends a few vehicles at once", async () => {
    const { db, engine, server, settle, clock, session, enqueue } = setup();
    // Queued while signed out (as offline), sent later.
    session.current = null;
    const a1 = await enqueue('partner-a', repair('KODE00000A', 1000));
    const a2 = await enqueue('partner-a', repair('KODE00000A', 1100));
    const a3 = await enqueue('partner-a', repair('KODE00000A', 1200));
    const others = [];
    for (const id of ['B', 'C', 'D', 'E', 'F']) {
      others.push(await enqueue('partner-a', repair(`KODE00000${id}`, 500)));
    }
    await settle();
    expect(server.calls).toHaveLength(0);

    session.current = 'partner-a';
    server.next('network'); // a1 fails first
    server.holdAnswers();
    const pass = engine.kick('start');
    // Four vehicles at once, each with its oldest entry.
    await server.whenInFlight(4);
    expect(server.keysSent()).toEqual([a1.key, ...others.slice(0, 3).map((entry) => entry.key)]);
    server.answerHeld();
    await pass;
    const keys = server.keysSent();
    expect(keys[0]).toBe(a1.key);
    expect(keys).not.toContain(a2.key);
    expect(keys).toEqual(expect.arrayContaining(others.map((entry) => entry.key)));
    expect(server.maxInFlight).toBe(4);
    await clock.advance(1000, settle);
    const order = server.keysSent().filter((key) => [a1.key, a2.key, a3.key].includes(key));
    expect(order).toEqual([a1.key, a1.key, a2.key, a3.key]);
    expect(await outbox(db)).toEqual([]);
  });

  it('drains a long queue in one pass: a slot freed goes at once to the next entry, the outbox read a few times only', async () => {
    const { db, engine, server, settle, session, enqueue } = setup();
    // Long enough next to the IndexedDB work that the four sends overlap.
    server.latencyMs = 20;
    session.current = null;
    const vehicles = ['KODE00000A', 'KODE00000B', 'KODE00000C', 'KODE00000D', 'KODE00000E', 'KODE00000F'];
    const entries = [];
    for (let i = 0; i < 90; i++) entries.push(await enqueue('partner-a', repair(vehicles[i % 6]!, 1000 + i)));
    await settle();
    // Count the reads of the whole outbox (partnerOutbox) the drain makes.
    let outboxReads = 0;
    const where = db.outbox.where.bind(db.outbox);
    db.outbox.where = ((index: string) => {
      if (index === '[partnerId+seq]') outboxReads += 1;
      return where(index);
    }) as typeof db.outbox.where;

    session.current = 'partner-a';
    server.holdAnswers();
    const pass = engine.kick('start');
    await server.whenInFlight(4);
    server.answerHeld();
    await pass;
    const keys = server.keysSent();
    expect(keys).toHaveLength(90);
    expect(new Set(keys).size).toBe(90);
    expect(server.stored.size).toBe(90);
    for (const vehicle of vehicles) {
      const own = entries.filter((entry) => entry.entry.kode_id === vehicle).map((entry) => entry.key);
      expect(keys.filter((key) => own.includes(key))).toEqual(own);
    }
    expect(server.maxInFlight).toBe(4);
    expect(await outbox(db)).toEqual([]);
    // One read to send everything, one to find nothing left, one to schedule the next wake-up.
    expect(outboxReads).toBeLessThanOrEqual(3);
  });

  it('a rejected entry does not hold back later entries of its vehicle', async () => {
    const { db, server, settle, enqueue } = setup();
    server.next({ code: 422, reason: 'vehicle_field_invalid' });
    await enqueue('partner-a', repair('KODE000001', 1000));
    await settle();
    const later = await enqueue('partner-a', repair('KODE000001', 1100));
    await settle();
    expect(server.keysSent()).toContain(later.key);
    expect((await outbox(db)).map((row) => row.state)).toEqual(['refused']);
  });

  it.each([
    ['a shared Web-Locks-like lock', () => memoryLock()],
    ['the lease fallback in IndexedDB', null],
  ])('one sender at a time with %s: every entry is sent exactly once', async (_label, makeLock) => {
    const db = freshDatabase();
    const clock = new ManualScheduler();
    const server = new ServerDouble();
    server.latencyMs = 3;
    const shared = makeLock?.();
    let holders = 0;
    let maxHolders = 0;
    const refusals: string[] = [];
    const instrument = (lock: SenderLock, owner: string): SenderLock => ({
      run: async (task) => {
        const acquired = await lock.run(async (keepAlive) => {
          holders += 1;
          maxHolders = Math.max(maxHolders, holders);
          try {
            await task(keepAlive);
          } finally {
            holders -= 1;
          }
        });
        if (!acquired) refusals.push(owner);
        return acquired;
      },
    });
    const tabs = ['tab-1', 'tab-2'].map((owner) => {
      const uuid = sequentialUuids(`00000000-0000-4000-8000-${owner === 'tab-1' ? '1' : '2'}`);
      const engine = new SyncEngine({
        db,
        transport: server.transport,
        session: new FakeSession(),
        lock: instrument(shared ?? leaseLock(db, { owner, now: clock.now }), owner),
        scheduler: clock,
        random: () => 0.5,
        uuid,
      });
      return { engine, enqueue: inserter(engine, db, clock.now, uuid) };
    });
    const engines = tabs.map((tab) => tab.engine);
    cleanups.push(async () => {
      engines.forEach((engine) => engine.stop());
      db.close();
      await db.delete();
    });
    const [first, second] = engines as [SyncEngine, SyncEngine];
    for (let i = 0; i < 6; i++) {
      await tabs[0]!.enqueue('partner-a', repair(`KODE00010${i}`, 1000 + i));
      await tabs[1]!.enqueue('partner-a', repair(`KODE00020${i}`, 1000 + i));
    }
    await Promise.all([first.kick('online'), second.kick('online'), first.kick(), second.kick()]);
    // The lease loser tries again a little later.
    await clock.advance(10_000, async () => {
      await Promise.all([first.idle(), second.idle()]);
    });
    expect(await db.outbox.count()).toBe(0);
    const keys = server.keysSent();
    expect(keys).toHaveLength(12);
    expect(new Set(keys).size).toBe(12);
    expect(server.stored.size).toBe(12);
    expect(maxHolders).toBe(1);
    // Web Locks queue the second sender; the lease turns it away and it tries again later.
    if (!shared) expect(refusals.length).toBeGreaterThan(0);
  });

  it('a lost answer (the server stored it, the tablet heard nothing): resent with the same key, stored once', async () => {
    const { db, server, settle, clock, enqueue } = setup();
    server.next('store-then-lose-answer');
    const entry = await enqueue('partner-a', repair('KODE000001', 1000));
    await settle();
    expect(server.stored.size).toBe(1);
    expect((await outbox(db))[0]).toMatchObject({ key: entry.key, state: 'queued' });
    await clock.advance(1000, settle);
    expect(server.keysSent()).toEqual([entry.key, entry.key]);
    expect(server.stored.size).toBe(1);
    expect(await outbox(db)).toEqual([]);
    expect(await db.history.count()).toBe(1);
  });

  it('a tab that died mid-send: the next sender picks the entry up again', async () => {
    const { db, server, engine } = setup();
    const dead = tabThatDiesWhileSending(db);
    const entry = await dead.enqueue('partner-a', repair('KODE000001', 1000));
    // As many turns as IndexedDB takes to get there: a fixed count ran short on a loaded host.
    await eventually(async () => (await outbox(db))[0]?.state === 'sending');
    await engine.kick('start');
    expect(server.keysSent()).toEqual([entry.key]);
    expect(await outbox(db)).toEqual([]);
  });

  it('the tab dies after the server stored the entry, before the acknowledgement: the next tab resends it under the same key, the server replays it, kept once', async () => {
    const { db, server, engine } = setup();
    // The request reaches the server, which stores it; the tab is closed before the answer is read.
    const dead = tabThatDiesWhileSending(db, (row) => server.store(row));
    const entry = await dead.enqueue('partner-a', repair('KODE000001', 1000));
    await eventually(async () => server.stored.size === 1);
    const [stored] = [...server.stored.values()];
    expect(await outbox(db)).toMatchObject([{ key: entry.key, state: 'sending' }]);
    expect(await db.history.count()).toBe(0);

    // A new tab opens on the same database: the interrupted entry is pending again and goes under its key.
    await engine.kick('start');
    expect(server.keysSent()).toEqual([entry.key]);
    expect(server.answers).toEqual([200]);
    expect(server.stored.size).toBe(1);
    expect(await outbox(db)).toEqual([]);
    const history = await db.history.toArray();
    expect(history).toEqual([{ ...stored?.record, partnerId: 'partner-a' }]);
  });
});

describe('outbox engine: partners on one tablet', () => {
  it("never sends partner A's entries under B's session, and keeps both", async () => {
    const { db, engine, server, settle, session, enqueue } = setup();
    session.current = null;
    const a1 = await enqueue('partner-a', repair('KODE000001', 1000));
    const a2 = await enqueue('partner-a', repair('KODE000002', 2000));
    await settle();
    expect(server.calls).toHaveLength(0);

    session.current = 'partner-b';
    const b1 = await enqueue('partner-b', repair('KODE000003', 3000));
    await engine.resume('partner-b');
    await settle();
    expect(server.calls.map((call) => [call.partnerId, call.key])).toEqual([['partner-b', b1.key]]);
    expect((await outbox(db)).map((row) => row.key)).toEqual([a1.key, a2.key]);

    // B signs out: nothing is sent, nothing is lost.
    session.current = null;
    await engine.kick('online');
    expect((await outbox(db)).map((row) => row.key)).toEqual([a1.key, a2.key]);

    session.current = 'partner-a';
    await engine.resume('partner-a');
    expect(server.calls.map((call) => call.partnerId)).toEqual(['partner-b', 'partner-a', 'partner-a']);
    expect(await outbox(db)).toEqual([]);
    expect((await db.history.toArray()).map((row) => row.partnerId).sort()).toEqual([
      'partner-a',
      'partner-a',
      'partner-b',
    ]);
  });
  it("another partner signs in while A's entry is being claimed: it is not sent under their session, and goes at A's next sign-in", async () => {
    const { db, engine, server, settle, session, enqueue } = setup();
    session.current = null;
    const entry = await enqueue('partner-a', repair('KODE000001', 1000));
    await settle();

    // Partner B signs in at the very moment the sender claims A's entry for sending.
    const claimed = (modifications: Partial<OutboxEntry>) => {
      if (modifications.state === 'sending') session.current = 'partner-b';
    };
    db.outbox.hook('updating', claimed);
    session.current = 'partner-a';
    await engine.kick('sign-in');
    db.outbox.hook('updating').unsubscribe(claimed);
    expect(session.current).toBe('partner-b');
    expect(server.calls).toEqual([]);
    expect(await outbox(db)).toMatchObject([{ key: entry.key, state: 'queued' }]);

    session.current = 'partner-a';
    await engine.resume('partner-a');
    expect(server.calls.map((call) => [call.key, call.signedInAs])).toEqual([[entry.key, 'partner-a']]);
    expect(await outbox(db)).toEqual([]);
  });
});

describe('outbox engine: Insert, correction and discard', () => {
  it('numbers entries in the order they were entered', async () => {
    const { db, session, enqueue } = setup();
    session.current = null;
    for (let i = 0; i < 3; i++) await enqueue('partner-a', repair('KODE000001', 1000 + i));
    await enqueue('partner-b', repair('KODE000001', 5000));
    expect((await outbox(db)).map((row) => [row.partnerId, row.seq, row.entry.odometer])).toEqual([
      ['partner-a', 1, 1000],
      ['partner-a', 2, 1001],
      ['partner-a', 3, 1002],
      ['partner-b', 4, 5000],
    ]);
  });

  it('submit tells stored, queued and rejected apart', async () => {
    const { engine, server } = setup();
    expect((await engine.submit('partner-a', repair('KODE000001', 1000))).kind).toBe('stored');
    server.next({ code: 404, reason: 'vehicle_not_found', message: 'Véhicule introuvable' });
    const rejected = await engine.submit('partner-a', repair('KODE000003', 1000));
    expect(rejected.kind).toBe('rejected');
    expect(rejected.entry.lastError?.message).toBe('Véhicule introuvable');
    server.next('network');
    expect((await engine.submit('partner-a', repair('KODE000002', 1000))).kind).toBe('queued');
  });

  it('a corrected entry goes under a new key with its original recorded_at', async () => {
    const { db, engine, server, clock } = setup();
    server.next({ code: 404, reason: 'vehicle_not_found' });
    const first = await engine.submit('partner-a', repair('KODE00000X', 1000));
    expect(first.kind).toBe('rejected');
    clock.time += 60 * 60_000;
    const corrected = await engine.resubmit('partner-a', first.entry.key, repair('KODE000001', 1000));
    expect(corrected?.kind).toBe('stored');
    expect(corrected?.entry.key).not.toBe(first.entry.key);
    expect(corrected?.entry.entry.recorded_at).toBe(first.entry.entry.recorded_at);
    expect(server.calls.at(-1)).toMatchObject({ key: corrected?.entry.key, body: { kode_id: 'KODE000001' } });
    expect(await outbox(db)).toEqual([]);
    // Only rejected entries of the same partner can be corrected.
    expect(await engine.resubmit('partner-a', first.entry.key, repair('KODE000001', 1000))).toBeNull();
  });

  it('discards a rejected entry only', async () => {
    const { db, engine, server, session, enqueue } = setup();
    server.next({ code: 400, reason: 'recorded_at_out_of_range' });
    const rejected = await engine.submit('partner-a', repair('KODE000001', 1000));
    session.current = null;
    const pending = await enqueue('partner-a', repair('KODE000002', 1000));
    expect(await engine.discard('partner-b', rejected.entry.key)).toBe(false);
    expect(await engine.discard('partner-a', pending.key)).toBe(false);
    expect(await engine.discard('partner-a', rejected.entry.key)).toBe(true);
    expect((await outbox(db)).map((row) => row.key)).toEqual([pending.key]);
  });
});

describe('outbox engine: one pass sends vehicles side by side', () => {
  it("a vehicle's entries go one at a time in the mechanic's order, beside other vehicles'; a failed one holds back only its vehicle", async () => {
    const hand = new AnswersByHand();
    const tablet = setup({ transport: hand.transport });
    const { db, engine } = tablet;
    const [a1, a2, a3, b1, b2, c1] = await queuedWhileSignedOut(tablet, [
      'KODE00000A',
      'KODE00000A',
      'KODE00000A',
      'KODE00000B',
      'KODE00000B',
      'KODE00000C',
    ]);
    const pass = engine.kick('start');
    await hand.whenInFlight([a1!, b1!, c1!]);
    hand.answer(b1!, 'store');
    await hand.whenInFlight([a1!, c1!, b2!]);
    hand.answer(a1!, 'store');
    await hand.whenInFlight([c1!, b2!, a2!]);
    hand.answer(a2!, networkFailure());
    // a3 waits for a2, which waits for its retry: vehicle A is done for this pass, the others go on.
    await hand.whenInFlight([c1!, b2!]);
    hand.answer(c1!, 'store');
    hand.answer(b2!, 'store');
    await pass;
    expect(hand.asked).toEqual([a1, b1, c1, b2, a2]);
    expect((await outbox(db)).map((row) => [row.key, row.state, row.attempts])).toEqual([
      [a2, 'queued', 1],
      [a3, 'queued', 0],
    ]);
  });

  it('never more than four sends at once; a freed slot goes at once to the oldest entry free to go', async () => {
    const hand = new AnswersByHand();
    const tablet = setup({ transport: hand.transport });
    const { db, engine } = tablet;
    const [v1, v2, v3, v4, v5, v6, v1Later] = await queuedWhileSignedOut(tablet, [
      'KODE000001',
      'KODE000002',
      'KODE000003',
      'KODE000004',
      'KODE000005',
      'KODE000006',
      'KODE000001',
    ]);
    const pass = engine.kick('start');
    await hand.whenInFlight([v1!, v2!, v3!, v4!]);
    hand.answer(v3!, 'store');
    await hand.whenInFlight([v1!, v2!, v4!, v5!]);
    hand.answer(v1!, 'store');
    // v6 is older than vehicle 1's next entry.
    await hand.whenInFlight([v2!, v4!, v5!, v6!]);
    hand.answer(v2!, 'store');
    await hand.whenInFlight([v4!, v5!, v6!, v1Later!]);
    for (const key of [v4!, v5!, v6!, v1Later!]) hand.answer(key, 'store');
    await pass;
    expect(hand.maxInFlight).toBe(4);
    expect(hand.asked).toEqual([v1, v2, v3, v4, v5, v6, v1Later]);
    expect(await outbox(db)).toEqual([]);
  });
});

describe('outbox engine: an answer changes an entry only if it is still as the send left it', () => {
  it.each([
    ['a network failure', networkFailure()],
    ['a 503', { code: 503, status: 'error', error: { type: 'other', reason: 'internal', message: 'x' } } as const],
  ])(
    'a 401 parks the entries still on their way: %s answered after it does not make one pending again',
    async (_label, lateAnswer) => {
      const hand = new AnswersByHand();
      const tablet = setup({ transport: hand.transport });
      const { db, engine, clock, settle } = tablet;
      const [a, b] = await queuedWhileSignedOut(tablet, ['KODE00000A', 'KODE00000B']);
      const pass = engine.kick('start');
      await hand.whenInFlight([a!, b!]);
      hand.answer(a!, unauthorized());
      await eventually(async () => (await stateOf(db, b!)) === 'waiting_for_sign_in');
      hand.answer(b!, lateAnswer);
      await pass;
      expect((await outbox(db)).map((row) => row.state)).toEqual(['waiting_for_sign_in', 'waiting_for_sign_in']);
      // Nothing goes again before the next sign-in.
      await engine.kick('online');
      await clock.advance(10 * 60_000, settle);
      expect(hand.asked).toEqual([a, b]);
    },
  );

  it('a 401 that arrives after the partner signed in again does not park: the entry goes again, under the new session', async () => {
    const hand = new AnswersByHand();
    const { db, engine, enqueue } = setup({ transport: hand.transport });
    const entry = await enqueue('partner-a', repair('KODE000001', 1000));
    await hand.whenInFlight([entry.key]);
    // The session ran out; the mechanic signs in again while the request made under it is still on its way.
    const signedIn = engine.resume('partner-a');
    await flush();
    hand.answer(entry.key, unauthorized());
    await hand.whenInFlight([entry.key]);
    expect(await stateOf(db, entry.key)).toBe('sending');
    hand.answer(entry.key, 'store');
    await signedIn;
    expect(hand.asked).toEqual([entry.key, entry.key]);
    expect(await outbox(db)).toEqual([]);
    expect(await db.history.count()).toBe(1);
  });
});

describe('outbox engine: while the network is down', () => {
  const VEHICLES = Array.from({ length: 10 }, (_, i) => `KODE00001${i}`);

  it('one entry probes at a time, further apart each time, the others left as they were; all go once it is back', async () => {
    let reachable = false;
    const tablet: ReturnType<typeof setup> = setup({
      transport: (row) => tablet.server.receive(row, reachable ? 'store' : 'network'),
    });
    const { db, engine, clock, server, settle } = tablet;
    await queuedWhileSignedOut(tablet, VEHICLES);

    await engine.kick('start');
    await settle();
    // The sends started together found no network: the pass stopped there.
    const firstPass = server.calls.length;
    expect(firstPass).toBeLessThanOrEqual(SYNC_POLICY.concurrency);
    expect((await outbox(db)).filter((row) => row.attempts === 0)).toHaveLength(VEHICLES.length - firstPass);

    // Ten minutes without network: one send at a time, each wait twice the one before (random 0.5:
    // 1 s, 2 s, 4 s … capped), instead of every vehicle's entry again at each of its own backoffs.
    const probeTimes: number[] = [];
    const probing = tablet.server.receive.bind(tablet.server);
    tablet.server.receive = (row, behaviour) => {
      probeTimes.push(clock.time);
      return probing(row, behaviour);
    };
    await clock.advance(10 * 60_000, settle);
    expect(probeTimes.length).toBeGreaterThanOrEqual(5);
    expect(probeTimes.length).toBeLessThanOrEqual(12);
    const waits = probeTimes.slice(1).map((time, i) => time - probeTimes[i]!);
    for (const [i, wait] of waits.entries()) expect(wait).toBeGreaterThanOrEqual(i === 0 ? 0 : waits[i - 1]!);
    expect(server.answers).toEqual([]);

    // An Insert does not wait for the probe's backoff: the probe goes at once, and finding no network,
    // leaves the new entry queued without sending it.
    const beforeInsert = server.calls.length;
    expect((await engine.submit('partner-a', repair('KODE000099', 1000))).kind).toBe('queued');
    expect(server.calls.length - beforeInsert).toBe(1);
    expect(server.calls.at(-1)?.body.kode_id).not.toBe('KODE000099');

    // Back online: everything goes in one pass, a few vehicles at once again.
    reachable = true;
    server.maxInFlight = 0;
    server.holdAnswers();
    const pass = engine.kick('online');
    await server.whenInFlight(SYNC_POLICY.concurrency);
    server.answerHeld();
    await pass;
    await settle();
    expect(await outbox(db)).toEqual([]);
    expect(server.stored.size).toBe(VEHICLES.length + 1);
  });

  it('sends one entry first while the browser says it has no network, and the others once one is answered', async () => {
    let browserOnline = false;
    let reachable = false;
    const tablet: ReturnType<typeof setup> = setup({
      transport: (row) => tablet.server.receive(row, reachable ? 'store' : 'network'),
      networkDown: () => !browserOnline,
    });
    const { db, engine, server, settle } = tablet;
    await queuedWhileSignedOut(tablet, VEHICLES.slice(0, 6));

    await engine.kick('start');
    await settle();
    // One claim and one retry written, not one of each per slot.
    expect(server.calls).toHaveLength(1);
    expect((await outbox(db)).filter((row) => row.attempts === 0)).toHaveLength(5);

    // The browser was wrong (or is not asked again): once a send is answered, the pass goes on as usual.
    reachable = true;
    server.latencyMs = 5;
    await engine.kick('manual');
    await settle();
    expect(await outbox(db)).toEqual([]);
    expect(server.stored.size).toBe(6);
    expect(server.maxInFlight).toBeGreaterThan(1);
    browserOnline = true;
  });

  it('an Insert while the network is taken to be down probes at once; answered, the new entry goes too', async () => {
    let reachable = false;
    const tablet: ReturnType<typeof setup> = setup({
      transport: (row) => tablet.server.receive(row, reachable ? 'store' : 'network'),
    });
    const { db, engine, server, settle } = tablet;
    await queuedWhileSignedOut(tablet, VEHICLES.slice(0, 6));
    await engine.kick('start');
    await settle();
    expect(server.stored.size).toBe(0);

    // The network came back without the browser saying so: the Insert's probe finds it.
    reachable = true;
    expect((await engine.submit('partner-a', repair('KODE000099', 1000))).kind).toBe('stored');
    await settle();
    expect(await outbox(db)).toEqual([]);
    expect(server.stored.size).toBe(7);
  });

  it('a send that gets no answer holds back new sends until another send is answered: then the pass goes on', async () => {
    const hand = new AnswersByHand();
    const tablet = setup({ transport: hand.transport });
    const { db, engine } = tablet;
    const [v1, v2, v3, v4, v5, v6] = await queuedWhileSignedOut(tablet, VEHICLES.slice(0, 6));
    const pass = engine.kick('start');
    await hand.whenInFlight([v1!, v2!, v3!, v4!]);
    hand.answer(v1!, networkFailure());
    // Perhaps the network is gone: nothing new starts while the others have not answered (given the
    // time the failure's write and a claim of the next entry would take).
    for (let turn = 0; turn < 50; turn++) await flush();
    expect(hand.inFlight()).toEqual([v2, v3, v4]);
    hand.answer(v2!, 'store');
    // An answer came: the network is there, the freed slots go to the next vehicles.
    await hand.whenInFlight([v3!, v4!, v5!, v6!]);
    for (const key of [v3!, v4!, v5!, v6!]) hand.answer(key, 'store');
    await pass;
    expect((await outbox(db)).map((row) => [row.key, row.state, row.attempts])).toEqual([[v1, 'queued', 1]]);
  });
});
