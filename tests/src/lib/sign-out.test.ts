/**
 * Signing out on a shared tablet: nothing of the partner stays on the device but their unsent
 * entries, and a sign-out made offline is carried out on the server before anything else is sent
 * once the network is back (the refresh cookie still in the browser is revoked first).
 */
import { describe, expect, it, vi } from 'vitest';
import type { RepairRecord, User } from '../../../contract';
import { db } from '../../../src/lib/db';
import { demoUser } from '../support/api';
import { repairRecord } from '../../support/records';
import { freshPage, json, outboxEntry, useTabletNetwork } from '../support/tablet-network';

/** The network as the tablet sees it: routes by "METHOD /api/…", every call recorded, or down. */
const network = useTabletNetwork(() => [
  ['POST /api/auth/logout/partner', () => json(200, null)],
  ['POST /api/auth/login', () => json(200, { access_token: 'token-2', user: demoUser })],
  ['POST /api/auth/refresh', () => json(401, { type: 'auth', message: 'Session expirée' })],
]);

function historyRecord(id: string): RepairRecord {
  return repairRecord({
    id,
    vehicle: { kode_id: 'KODE000002', vin: 'VF12T7VY4HJ685969', brand: 'Renault', name: 'Clio 5', year: 2017 },
    repair_type: { id: 'oil_change', name: 'Vidange', name_ar: null, name_en: null },
    odometer: 80_000,
    recorded_at: '2026-11-19T08:00:00.000Z',
    created_at: '2026-11-19T08:00:00.000Z',
    idempotency_key: `${id}-key`,
  });
}

/** What the tablet holds of a partner: their account, history, vehicles and kept numbers. */
async function fillTabletFor(user: User) {
  await db.accounts.put({ id: user.id, user, signedInAt: '2026-11-20T07:00:00.000Z' });
  await db.history.put({ ...historyRecord(`${user.id}-r1`), partnerId: user.id });
  await db.vehicles.put({
    kode_id: 'KODE000002',
    vin: 'VF12T7VY4HJ685969',
    brand: 'Renault',
    name: 'Clio 5',
    year: 2017,
    last_odometer: 80_000,
    last_odometer_at: null,
    partnerId: user.id,
    fetchedAt: '2026-11-20T07:00:00.000Z',
  });
  await db.meta.put({ key: `statistics:${user.id}`, value: { fetchedAt: 'x' } });
  await db.meta.put({ key: `history-refreshed-at:${user.id}`, value: 'x' });
}

/** A partner signs out while offline; the tablet is reopened and the network is back. */
async function signedOutOfflineThenReopened() {
  const first = await freshPage();
  await first.establishSession({ access_token: 'token-1', user: demoUser });
  network.up = false;
  await first.logout();
  expect(network.calls).toEqual([]);
  const page = await freshPage();
  network.up = true;
  return page;
}

const otherPartner: User = { ...demoUser, id: 'other-partner', email: 'autre@garage.dz' };

describe('signing out', () => {
  it("leaves nothing of the partner on the tablet but their unsent entries; another partner's data stays", async () => {
    const page = await freshPage();
    await page.establishSession({ access_token: 'token-1', user: demoUser });
    await fillTabletFor(demoUser);
    await fillTabletFor(otherPartner);
    await db.outbox.bulkAdd([outboxEntry(demoUser.id, 'k-1'), outboxEntry(otherPartner.id, 'k-2')]);

    await page.logout();

    expect(await db.accounts.toCollection().primaryKeys()).toEqual([otherPartner.id]);
    expect(await db.history.where('partnerId').equals(demoUser.id).count()).toBe(0);
    expect(await db.vehicles.where('partnerId').equals(demoUser.id).count()).toBe(0);
    const keys = (await db.meta.toCollection().primaryKeys()).map(String);
    expect(keys.filter((key) => key.includes(demoUser.id))).toEqual([]);
    expect(keys).toContain(`statistics:${otherPartner.id}`);
    expect(await db.history.where('partnerId').equals(otherPartner.id).count()).toBe(1);
    expect((await db.outbox.toArray()).map((row) => row.key).sort()).toEqual(['k-1', 'k-2']);
    expect(page.getSession()).toMatchObject({ status: 'anonymous', user: null });
  });

  it('made offline, is carried out on the server before anything else once the network is back', async () => {
    // The tablet is reopened, then the network returns: the next user signs in.
    const page = await signedOutOfflineThenReopened();
    await page.ensureSession();
    await vi.waitFor(() => expect(network.calls).toEqual(['POST /api/auth/logout/partner']));
    // Owed no more: the sign-in that follows goes alone.
    const login = await page.apiCall('POST auth /login', { body: {} });
    expect(login.status).toBe('success');
    expect(network.calls).toEqual(['POST /api/auth/logout/partner', 'POST /api/auth/login']);
  });

  it('still owed, goes before the first request even when that request comes first', async () => {
    const page = await signedOutOfflineThenReopened();
    await page.apiCall('POST auth /login', { body: {} });
    expect(network.calls).toEqual(['POST /api/auth/logout/partner', 'POST /api/auth/login']);
  });

  it('is tried again at each connection while the server cannot hear it, and never lets the gate refresh', async () => {
    const page = await signedOutOfflineThenReopened();
    network.routes.set('POST /api/auth/logout/partner', () => json(503, { type: 'other', message: 'indisponible' }));
    expect(await page.ensureSession()).toBe('anonymous');
    await vi.waitFor(() => expect(network.calls).toEqual(['POST /api/auth/logout/partner']));
    // Nobody is signed in: the gate does not ask for a refresh with the cookie still in the browser.
    expect(network.calls).not.toContain('POST /api/auth/refresh');
    // That attempt has had its 503 (an attempt in flight is the one every caller waits for).
    await page.settlePendingSignOut();

    network.routes.set('POST /api/auth/logout/partner', () => json(200, null));
    const stopWatching = page.settleSignOutWhenOnline();
    try {
      window.dispatchEvent(new Event('online'));
      await vi.waitFor(() =>
        expect(network.calls).toEqual(['POST /api/auth/logout/partner', 'POST /api/auth/logout/partner']),
      );
      await page.apiCall('POST auth /login', { body: {} });
      expect(network.calls).toEqual([
        'POST /api/auth/logout/partner',
        'POST /api/auth/logout/partner',
        'POST /api/auth/login',
      ]);
    } finally {
      stopWatching();
    }
  });
});

describe('what a start knows before IndexedDB', () => {
  const mirror = () => JSON.parse(localStorage.getItem('partner-session') ?? 'null') as unknown;

  it('keeps the signed-in partner and an owed sign-out in localStorage, as IndexedDB has them', async () => {
    const page = await freshPage();
    await page.establishSession({ access_token: 'token-1', user: demoUser });
    expect(mirror()).toEqual({ account: demoUser, pendingSignOut: false });

    network.up = false;
    await page.logout();
    expect(mirror()).toEqual({ account: null, pendingSignOut: true });
    expect(await db.meta.get('pending-sign-out')).toEqual({ key: 'pending-sign-out', value: true });

    network.up = true;
    await page.settlePendingSignOut();
    expect(mirror()).toEqual({ account: null, pendingSignOut: false });
  });

  it('starts signed in from the mirror alone when the server cannot be reached', async () => {
    localStorage.setItem('partner-session', JSON.stringify({ account: demoUser, pendingSignOut: false }));
    network.up = false;
    const page = await freshPage();
    expect(await page.ensureSession()).toBe('authenticated');
    expect(page.getSession()).toMatchObject({ user: demoUser, offline: true });
  });

  it('reads IndexedDB once on a tablet that has no mirror yet (an older version signed in), then keeps it', async () => {
    await db.accounts.put({ id: demoUser.id, user: demoUser, signedInAt: '2026-11-20T07:00:00.000Z' });
    await db.meta.put({ key: 'current-account', value: demoUser.id });
    network.up = false;
    const page = await freshPage();
    expect(await page.ensureSession()).toBe('authenticated');
    expect(page.getSession()).toMatchObject({ user: demoUser, offline: true });
    expect(mirror()).toEqual({ account: demoUser, pendingSignOut: false });
  });

  it('reads IndexedDB once for both of the start’s questions when there is no mirror', async () => {
    const databases = vi.spyOn(indexedDB, 'databases');
    try {
      const page = await freshPage();
      expect(await page.ensureSession()).toBe('anonymous');
      expect(databases).toHaveBeenCalledTimes(1);
    } finally {
      databases.mockRestore();
    }
  });

  it('asks the server nothing when the mirror says nobody is signed in', async () => {
    localStorage.setItem('partner-session', JSON.stringify({ account: null, pendingSignOut: false }));
    const page = await freshPage();
    expect(await page.ensureSession()).toBe('anonymous');
    expect(network.calls).toEqual([]);
  });
});
