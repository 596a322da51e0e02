import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RepairRecord } from '../../../../contract';
import { apiRequest, parseRetryAfter, type ApiResponse } from '../../../../src/lib/api/client';
import { db, type OutboxEntry } from '../../../../src/lib/db';
import { judgeNewReading, type Reading } from '../../../../contract';
import { establishSession, logout } from '../../../../src/lib/session';
import { getSyncEngine, startSync } from '../../../../src/lib/entries';
import { classifySend, deliveryOf } from '../../../../src/lib/entries/classify';
import { leaseLock } from '../../../../src/lib/entries/lock';
import { SYNC_POLICY } from '../../../../src/lib/entries/policy';
import { lookupVehicle } from '../../../../src/features/dashboard/data/vehicles';
import { checkReading } from '../../../../src/lib/entries/timeline';
import { freshDatabase, partnerUser } from './support';
import { repairRecord } from '../../../support/records';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

const networkDown: ApiResponse<never> = {
  code: 0,
  status: 'error',
  error: { type: 'other', reason: 'network', message: 'Failed to fetch' },
};

let posted: { key: string; partner: string }[] = [];
let signedIn = 'partner-a';
let network = true;
let vehicleAnswer: ApiResponse<unknown> = networkDown;

function stored(body: Record<string, unknown>, key: string): RepairRecord {
  return repairRecord({
    id: `r-${posted.length}`,
    vehicle: { kode_id: String(body.kode_id), vin: 'V', brand: 'B', name: 'N', year: 2020 },
    repair_type: { id: 'oil', name: 'Vidange', name_ar: null, name_en: null },
    odometer: Number(body.odometer),
    recorded_at: String(body.recorded_at),
    created_at: new Date().toISOString(),
    idempotency_key: key,
  });
}

beforeAll(() => {
  vi.mocked(apiRequest).mockImplementation(async (_base, path, options) => {
    if (path === '/logout/partner') return { code: 200, status: 'success', data: null } as never;
    if (path.startsWith('/vehicles/') && path.endsWith('/readings')) return networkDown as never;
    if (path.startsWith('/vehicles/')) return vehicleAnswer as never;
    if (!network) return networkDown as never;
    if (path === '/repairs' && options.method === 'POST') {
      const key = options.headers?.['Idempotency-Key'] ?? '';
      posted.push({ key, partner: signedIn });
      return { code: 201, status: 'success', data: stored(options.body as Record<string, unknown>, key) } as never;
    }
    return networkDown as never;
  });
});

let stop: (() => void) | null = null;
afterAll(() => stop?.());

// Each test starts on a tablet where nobody is signed in and the app has not started sending yet,
// whatever order the tests run in.
beforeEach(async () => {
  stop?.();
  stop = null;
  await logout();
  await getSyncEngine().idle();
  await Promise.all([db.outbox.clear(), db.history.clear(), db.vehicles.clear(), db.readings.clear(), db.meta.clear()]);
  posted = [];
  network = true;
  vehicleAnswer = networkDown;
});

afterEach(async () => {
  await getSyncEngine().idle();
});

function queued(n: number, partnerId: string, overrides: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    key: `00000000-0000-4000-8000-00000000000${n}`,
    partnerId,
    entry: {
      kode_id: `KODE00000${n}`,
      odometer: 1000,
      repair_type_id: 'oil',
      consented: true,
      note: '',
      recorded_at: new Date().toISOString(),
    },
    state: 'queued',
    seq: n,
    attempts: 3,
    nextAttemptAt: Date.now() + 3_600_000,
    lastError: { code: 0, message: 'Failed to fetch' },
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not met');
}

describe('startSync: when the app sends', () => {
  it('sends on sign-in, on coming back online and on return to the tab, only the signed-in partner’s entries', async () => {
    stop = startSync();
    expect(startSync()).toBe(stop);

    signedIn = 'partner-a';
    await db.outbox.bulkAdd([queued(1, 'partner-a', { state: 'waiting_for_sign_in' }), queued(2, 'partner-b')]);
    await establishSession({ access_token: 'a', user: partnerUser('partner-a') });
    await until(async () => (await db.outbox.count()) === 1);
    expect(posted).toEqual([{ key: queued(1, 'x').key, partner: 'partner-a' }]);

    // An entry in backoff after a network failure goes as soon as the browser says it is online again.
    await db.outbox.add(queued(3, 'partner-a'));
    window.dispatchEvent(new Event('online'));
    await until(async () => (await db.outbox.where('partnerId').equals('partner-a').count()) === 0);

    await db.outbox.add(queued(4, 'partner-a'));
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
    await until(async () => (await db.outbox.where('partnerId').equals('partner-a').count()) === 0);
    expect(posted.map((call) => call.partner)).toEqual(['partner-a', 'partner-a', 'partner-a']);

    // Partner B's entry waited on the tablet all along; signing out keeps it, B's sign-in sends it.
    await logout();
    expect(await db.outbox.count()).toBe(1);
    signedIn = 'partner-b';
    await establishSession({ access_token: 'b', user: partnerUser('partner-b') });
    await until(async () => (await db.outbox.count()) === 0);
    expect(posted.at(-1)).toEqual({ key: queued(2, 'x').key, partner: 'partner-b' });
  });

  it('started once a partner has signed in, as the app starts it, sends what waited for that sign-in', async () => {
    stop?.();
    await logout();
    signedIn = 'partner-a';
    await db.outbox.add(queued(5, 'partner-a', { state: 'waiting_for_sign_in' }));
    await establishSession({ access_token: 'a', user: partnerUser('partner-a') });
    expect(posted).toEqual([]);

    stop = startSync();
    await until(async () => (await db.outbox.count()) === 0);
    expect(posted).toEqual([{ key: queued(5, 'x').key, partner: 'partner-a' }]);
  });
});

describe('vehicle lookup', () => {
  it('caches what it finds, serves it offline, and lets an unknown vehicle through offline', async () => {
    await establishSession({ access_token: 'a', user: partnerUser('partner-a') });
    const vehicle = {
      kode_id: 'KODE000001',
      vin: 'VIN1',
      brand: 'Renault',
      name: 'Clio',
      year: 2019,
      last_odometer: 100_000,
      last_odometer_at: '2025-01-01T00:00:00.000Z',
    };
    vehicleAnswer = { code: 200, status: 'success', data: vehicle };
    expect(await lookupVehicle('kode000001')).toEqual({ kind: 'found', vehicle });
    vehicleAnswer = networkDown;
    expect(await lookupVehicle('KODE000001')).toMatchObject({ kind: 'cached', vehicle });
    expect(await lookupVehicle('KODE000002')).toEqual({ kind: 'offline-unknown', kodeId: 'KODE000002' });
    vehicleAnswer = { code: 503, status: 'error', error: { type: 'other', reason: 'internal', message: 'x' } };
    expect((await lookupVehicle('KODE000001')).kind).toBe('cached');
    vehicleAnswer = {
      code: 404,
      status: 'error',
      error: { type: 'not_found', reason: 'vehicle_not_found', message: 'Véhicule introuvable' },
    };
    expect(await lookupVehicle('KODE000009')).toEqual({ kind: 'not-found', message: 'Véhicule introuvable' });
    // Another partner on the same tablet does not see partner A's cache.
    await establishSession({ access_token: 'b', user: partnerUser('partner-b') });
    vehicleAnswer = networkDown;
    expect((await lookupVehicle('KODE000001')).kind).toBe('offline-unknown');
  });

  it('checks a reading against the lookup, the synced history and the queued entries', async () => {
    await establishSession({ access_token: 'a', user: partnerUser('partner-a') });
    const day = 86_400_000;
    const vehicle = {
      kode_id: 'KODE000001',
      vin: 'V',
      brand: 'B',
      name: 'N',
      year: 2020,
      last_odometer: 100_000,
      last_odometer_at: new Date(Date.now() - 29 * day).toISOString(),
    };
    // The rules of contract/readings.ts: a dip of 100 km or more; over 20,000 km within a month (29 days here).
    expect((await checkReading('KODE000001', 99_901, vehicle)).kind).toBe('ok');
    expect((await checkReading('KODE000001', 99_900, vehicle)).kind).toBe('lower');
    expect((await checkReading('KODE000001', 120_000, vehicle)).kind).toBe('ok');
    expect((await checkReading('KODE000001', 120_001, vehicle)).kind).toBe('too_high');
    await db.outbox.add({
      ...queued(1, 'partner-a', { state: 'queued' }),
      entry: { ...queued(1, 'partner-a').entry, kode_id: 'KODE000001', odometer: 120_000 },
    });
    const verdict = await checkReading('KODE000001', 110_000, vehicle);
    expect(verdict).toMatchObject({ kind: 'lower', previous: { odometer: 120_000 } });
    // A rejected entry is not a known reading.
    await db.outbox.toCollection().modify({ state: 'refused' });
    expect((await checkReading('KODE000001', 110_000, vehicle)).kind).toBe('ok');
  });
});

describe('small rules', () => {
  it('judges a new reading the way the server will judge it', () => {
    const at = (iso: string) => ({ recorded_at: iso });
    const previous: Reading = {
      id: 'a',
      odometer: 50_000,
      recorded_at: '2025-03-09T12:00:00.000Z',
      received_at: null,
      superseded: false,
      correction_reason: null,
    };
    const now = at('2025-03-10T00:00:00.000Z');
    expect(judgeNewReading([], { odometer: 1, ...now })).toEqual({ kind: 'ok', previous: null });
    // A dip under 100 km is tolerated (contract/readings.ts).
    expect(judgeNewReading([previous], { odometer: 49_901, ...now }).kind).toBe('ok');
    expect(judgeNewReading([previous], { odometer: 49_900, ...now })).toEqual({
      kind: 'lower',
      previous: { odometer: 50_000, at: previous.recorded_at },
    });
    // Less than a day counts as one day: 1,500 km.
    expect(judgeNewReading([previous], { odometer: 51_500, ...now }).kind).toBe('ok');
    expect(judgeNewReading([previous], { odometer: 51_501, ...now }).kind).toBe('too_high');
    // A superseded reading has left the rules; a replaced odometer starts again from its reading.
    expect(judgeNewReading([{ ...previous, superseded: true }], { odometer: 1, ...now }).kind).toBe('ok');
    const replaced: Reading = { ...previous, id: 'b', odometer: 10, correction_reason: 'odometer_replaced' };
    expect(judgeNewReading([previous, replaced], { odometer: 20, ...now })).toMatchObject({
      kind: 'ok',
      previous: { odometer: 10 },
    });
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(30_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('classifies every kind of answer', () => {
    const error = (code: number, reason?: string) =>
      deliveryOf({ code, status: 'error', error: { type: 'validation', message: 'm', ...(reason ? { reason } : {}) } });
    expect(classifySend(error(0, 'network')).kind).toBe('retry');
    expect(classifySend(error(408, 'invalid_request')).kind).toBe('retry');
    expect(classifySend(error(429, 'rate_limited')).kind).toBe('retry');
    expect(classifySend(error(502, 'internal')).kind).toBe('retry');
    expect(classifySend(error(401, 'unauthorized')).kind).toBe('unauthorized');
    expect(classifySend(error(400, 'recorded_at_out_of_range')).kind).toBe('rejected');
    expect(classifySend(error(404, 'vehicle_not_found')).kind).toBe('rejected');
    expect(classifySend(error(413, 'body_too_large')).kind).toBe('rejected');
    expect(classifySend(error(422, 'idempotency_conflict')).kind).toBe('rejected');
    expect(classifySend(error(400)).kind).toBe('retry');
  });

  it('the lease: one holder, taken over once it has expired', async () => {
    const leaseDb = freshDatabase();
    let now = 1_000;
    const first = leaseLock(leaseDb, { owner: 'tab-1', now: () => now });
    const second = leaseLock(leaseDb, { owner: 'tab-2', now: () => now });
    let secondRan = false;
    let release = () => undefined as void;
    const held = first.run(() => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await second.run(async () => void (secondRan = true))).toBe(false);
    // A tab that died holding it: after the TTL another tab takes over.
    now += SYNC_POLICY.leaseTtlMs + 1;
    expect(await second.run(async () => void (secondRan = true))).toBe(true);
    expect(secondRan).toBe(true);
    release();
    expect(await held).toBe(true);
    leaseDb.close();
    await leaseDb.delete();
  });
});
