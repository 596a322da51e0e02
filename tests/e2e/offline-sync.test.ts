/**
 * The outbox end to end (docs/ARCHITECTURE.md#the-offline-model-in-practice): repairs recorded offline survive a reload and sync by
 * themselves once the network is back, each stored exactly once with the moment of Insert; a lost
 * answer is retried under the same Idempotency-Key; an entry the server refuses waits for the
 * mechanic to correct or discard it; two tabs send one at a time. Each test has its own partner,
 * so the server's count of their repairs is exact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screenshot } from './support/browser';
import {
  contextPerTest,
  findVehicle,
  historyRows,
  indicator,
  openTab,
  recordRepair,
  registerPartner,
  reloadOffline,
  repairForm,
  repairPosts,
  type RepairToRecord,
  serverRepairs,
  signIn,
  SYNC_TIMEOUT,
  waitForPrecache,
  waitForServiceWorker,
  waitingIn,
  waitUntilReadyOffline,
  watchRepairPosts,
} from './support/offline';
import { startDroppingProxy, type DroppingProxy } from './support/proxy';
import { useE2eSetting } from './support/setting';
import { scaled } from '../support/host-speed';

const e2e = useE2eSetting();
let proxy: DroppingProxy | null = null;

afterEach(async () => {
  await proxy?.close();
  proxy = null;
});

const tablet = contextPerTest(() => e2e.browser);

/**
 * These tests are about the pages' own sender: the pages are told the browser has no background sync,
 * so the service worker never races them (its sender is tests/e2e/background-sync.test.ts's).
 */
async function freshContext(): Promise<BrowserContext> {
  const context = await tablet.open();
  await context.addInitScript(() => {
    if (typeof ServiceWorkerRegistration !== 'undefined') {
      Reflect.deleteProperty(ServiceWorkerRegistration.prototype, 'sync');
    }
  });
  await watchRepairPosts(context);
  return context;
}

/** The demo vehicles (server/seed/vehicles.csv) and their VINs. */
const VIN = {
  KODE000001: 'VF1S1CD16RB267735',
  KODE000002: 'VF12T7VY4HJ685969',
} as const;

const connection = async (page: Page) => {
  const { online, label } = await indicator(page);
  return { online, waiting: waitingIn(label) };
};

const statuses = async (page: Page) => (await historyRows(page)).map((row) => row.status);

describe('outbox sync', () => {
  it('keeps three repairs recorded offline through a reload and syncs them by itself when back online', async () => {
    const account = await registerPartner(e2e.portal.url, 'sync');
    const ctx = await freshContext();
    const page = await ctx.newPage();
    await signIn(page, e2e.portal.url, account);
    await waitForServiceWorker(page);
    await waitForPrecache(page);
    // Looked up online: the tablet keeps both vehicles for later.
    await findVehicle(page, 'KODE000001', VIN.KODE000001);
    await findVehicle(page, 'KODE000002', VIN.KODE000002);
    await repairForm(page).kodeId.fill('');

    await ctx.setOffline(true);
    const fields = repairForm(page);
    // A vehicle looked up before comes from IndexedDB, with its details.
    await findVehicle(page, 'KODE000001', VIN.KODE000001);
    await page.getByText('Hors connexion : informations du véhicule enregistrées sur la tablette').waitFor();
    const repairs: RepairToRecord[] = [
      { kodeId: 'KODE000001', odometer: 120_500, type: 'Vidange' },
      { kodeId: 'KODE000002', odometer: 87_000, type: 'Révision générale', find: true },
      // Never looked up on this tablet: recorded by its kode_id only, checked by the server on sync.
      { kodeId: 'KODE000003', odometer: 45_000, type: 'Réparation moteur' },
    ];
    const moments: Record<string, { before: number; after: number }> = {};
    for (const repair of repairs) {
      if (repair.kodeId === 'KODE000003') {
        await fields.kodeId.fill(repair.kodeId);
        await fields.find.click();
        await page.getByText("Hors connexion : ce véhicule n'a pas encore été consulté sur cette tablette.").waitFor();
      }
      moments[repair.kodeId] = await recordRepair(page, repair);
      await page
        .getByText('Saisie enregistrée sur la tablette, elle sera envoyée dès le retour de la connexion.')
        .first()
        .waitFor();
    }
    await expect.poll(() => connection(page)).toEqual({ online: false, waiting: 3 });
    expect((await indicator(page)).label).toMatch(/^Hors ligne, 3 saisies en attente/);

    await reloadOffline(page);
    await openTab(page, 'Historique');
    await expect.poll(() => statuses(page)).toEqual(['pending', 'pending', 'pending']);
    const offlineRows = await historyRows(page);
    expect(offlineRows.map((row) => row.kodeId).sort()).toEqual(['KODE000001', 'KODE000002', 'KODE000003']);
    expect(offlineRows.every((row) => row.text.includes('En attente'))).toBe(true);
    // The sending status reads the outbox at its own moment: the History's rows may be first.
    await expect.poll(async () => waitingIn((await indicator(page)).label)).toBe(3);
    await screenshot(page, 'offline-sync-pending');
    // Nothing reached the server while offline.
    expect(await serverRepairs(e2e.portal.url, account)).toEqual([]);

    const backOnline = Date.now();
    await ctx.setOffline(false);
    // No click: the 'online' event starts the sender.
    await expect.poll(() => statuses(page), SYNC_TIMEOUT).toEqual(['synced', 'synced', 'synced']);
    expect((await historyRows(page)).some((row) => row.text.includes('En attente'))).toBe(false);
    await expect.poll(() => indicator(page)).toEqual({ online: true, label: 'En ligne' });
    await screenshot(page, 'offline-sync-synced');

    const stored = await serverRepairs(e2e.portal.url, account);
    expect(stored).toHaveLength(3);
    expect(stored.map((repair) => repair.vehicle.kode_id).sort()).toEqual(['KODE000001', 'KODE000002', 'KODE000003']);
    const sent = (await repairPosts(page)).filter((post) => post.status !== null && post.status < 300);
    for (const repair of stored) {
      const moment = moments[repair.vehicle.kode_id]!;
      const recordedAt = Date.parse(repair.recorded_at);
      // The moment of Insert, not of the sync.
      expect(recordedAt).toBeGreaterThanOrEqual(moment.before - 5);
      expect(recordedAt).toBeLessThanOrEqual(moment.after + 5);
      expect(recordedAt).toBeLessThan(backOnline);
      expect(Date.parse(repair.created_at)).toBeGreaterThanOrEqual(backOnline - 1000);
      const post = sent.find((candidate) => candidate.body.kode_id === repair.vehicle.kode_id);
      expect(post?.body.recorded_at).toBe(new Date(recordedAt).toISOString());
      expect(repair.odometer).toBe(repairs.find((entry) => entry.kodeId === repair.vehicle.kode_id)?.odometer);
    }
  });

  it('retries a repair whose answer was lost under the same Idempotency-Key, and the server stores it once', async () => {
    const account = await registerPartner(e2e.portal.url, 'lost');
    const dropping = await startDroppingProxy(e2e.portal.url);
    proxy = dropping;
    const ctx = await freshContext();
    tablet.allow(/Failed to load resource: net::ERR_EMPTY_RESPONSE/);
    const page = await ctx.newPage();
    await signIn(page, dropping.url, account);
    await findVehicle(page, 'V3SMJ5P6FX', 'UU1X3J606D0606362');

    const dropped = dropping.dropNextResponseTo('POST', '/api/partner/repairs');
    await recordRepair(page, { kodeId: 'V3SMJ5P6FX', odometer: 98_000, type: 'Vidange' });
    // The server stored it and answered; the tablet never heard.
    expect(await dropped).toBe(201);
    // Insert's first attempt ended without an answer: the entry stays on the tablet.
    await page
      .getByText('Saisie enregistrée sur la tablette, elle sera envoyée dès le retour de la connexion.')
      .first()
      .waitFor();
    const first = (await repairPosts(page))[0];
    expect(first?.status).toBeNull();
    expect(first?.error).toBeTruthy();

    // The retry gets the stored repair back under the same key. It comes from the page (backoff of at
    // most 2 s) or from the service worker's background sync, registered when the entry was left
    // waiting: whichever is first; the other finds nothing left to send.
    const repairPostsForwarded = () =>
      dropping.forwarded().filter((line) => line.startsWith('POST /api/partner/repairs')).length;
    await expect.poll(repairPostsForwarded, SYNC_TIMEOUT).toBe(2);
    // The proxy counts a request when it forwards it; the page records the answer a moment later.
    const settledRetries = async () => {
      const retries = (await repairPosts(page)).slice(1);
      return retries.every((retry) => retry.end !== null) ? retries : null;
    };
    await expect.poll(settledRetries, SYNC_TIMEOUT).not.toBeNull();
    const fromPage = (await settledRetries()) ?? [];
    for (const retry of fromPage) expect(retry).toMatchObject({ status: 200, key: first?.key, body: first?.body });

    await expect.poll(() => indicator(page)).toEqual({ online: true, label: 'En ligne' });
    await openTab(page, 'Historique');
    await expect.poll(() => statuses(page)).toEqual(['synced']);
    const stored = await serverRepairs(e2e.portal.url, account);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      vehicle: { kode_id: 'V3SMJ5P6FX' },
      odometer: 98_000,
      idempotency_key: first?.key,
    });
    expect(repairPostsForwarded()).toBe(2);
  });

  it('shows an entry the server refused with its message, sends it again once corrected, and discards another', async () => {
    const account = await registerPartner(e2e.portal.url, 'refused');
    const ctx = await freshContext();
    tablet.allow(/Failed to load resource: the server responded with a status of 404/);
    const page = await ctx.newPage();
    await signIn(page, e2e.portal.url, account);
    await waitUntilReadyOffline(page);

    // Offline nothing can check the identifiers: both go to the outbox.
    await ctx.setOffline(true);
    const wrong = await recordRepair(page, { kodeId: 'ZZZZZZZZZ9', odometer: 150_000, type: 'Vidange' });
    await recordRepair(page, { kodeId: 'ZZZZZZZZZ8', odometer: 60_000, type: 'Vidange' });
    await expect.poll(async () => waitingIn((await indicator(page)).label)).toBe(2);

    await ctx.setOffline(false);
    await openTab(page, 'Historique');
    await expect.poll(() => statuses(page), SYNC_TIMEOUT).toEqual(['rejected', 'rejected']);
    for (const row of await historyRows(page)) {
      expect(row.text).toContain('Refusée');
      expect(row.text).toContain('Aucun véhicule ne correspond à ce KODE ID');
    }
    await expect.poll(() => indicator(page)).toEqual({ online: true, label: 'En ligne, 2 saisies refusées' });
    await screenshot(page, 'offline-sync-rejected');

    // Correct: the identifier was mistyped.
    await page.getByRole('button', { name: 'Corriger la saisie ZZZZZZZZZ9' }).click();
    const dialog = page.getByRole('dialog', { name: 'Corriger la saisie' });
    await dialog.getByText('Aucun véhicule ne correspond à ce KODE ID').waitFor();
    await dialog.getByLabel('Identifiant du véhicule (KODE ID)').fill('KODE000001');
    await dialog.getByText('Je confirme que les informations saisies sont exactes').click();
    await dialog.getByRole('button', { name: 'Renvoyer' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await historyRows(page)).map((row) => `${row.kodeId} ${row.status}`).sort(), SYNC_TIMEOUT)
      .toEqual(['KODE000001 synced', 'ZZZZZZZZZ8 rejected']);

    // Discard, after confirming.
    await page.getByRole('button', { name: 'Abandonner la saisie ZZZZZZZZZ8' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Abandonner cette saisie ?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Abandonner', exact: true }).click();
    await expect
      .poll(async () => (await historyRows(page)).map((row) => `${row.kodeId} ${row.status}`))
      .toEqual(['KODE000001 synced']);
    await expect.poll(() => indicator(page)).toEqual({ online: true, label: 'En ligne' });

    const stored = await serverRepairs(e2e.portal.url, account);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ vehicle: { kode_id: 'KODE000001' }, odometer: 150_000 });
    // The corrected entry keeps the moment it was first recorded.
    expect(Date.parse(stored[0]!.recorded_at)).toBeGreaterThanOrEqual(wrong.before - 5);
    expect(Date.parse(stored[0]!.recorded_at)).toBeLessThanOrEqual(wrong.after + 5);
  });

  it('syncs entries recorded offline in two tabs exactly once, one tab sending at a time', async () => {
    const account = await registerPartner(e2e.portal.url, 'tabs');
    const ctx = await freshContext();
    const first = await ctx.newPage();
    await signIn(first, e2e.portal.url, account);
    await waitUntilReadyOffline(first);
    const second = await ctx.newPage();
    await second.goto(`${e2e.portal.url}/`);
    await second.getByRole('heading', { level: 1, name: 'Tableau de bord – Partenaire Garage' }).waitFor();
    // The heading comes with the page's HTML; the tab is live once its form lists the repair types,
    // read from the tablet's database, whose code follows the first screen (docs/ARCHITECTURE.md#start-up).
    await expect
      .poll(() => repairForm(second).type.locator('option', { hasText: 'Vidange' }).count(), {
        timeout: scaled(10_000),
      })
      .toBeGreaterThan(0);

    await ctx.setOffline(true);
    const entries: [Page, RepairToRecord][] = [
      [first, { kodeId: 'T4GUH2M9UP', odometer: 40_000, type: 'Vidange' }],
      [second, { kodeId: 'UAWT88PAN7', odometer: 71_000, type: 'Vidange' }],
      [first, { kodeId: 'TEQUFH2RP7', odometer: 52_000, type: 'Révision générale' }],
      [second, { kodeId: 'Q8Q2A9XPGC', odometer: 33_000, type: 'Vidange' }],
      [first, { kodeId: 'B8RXR7BP4R', odometer: 64_000, type: 'Réparation moteur' }],
      // The same vehicle from the other tab, a later reading: it must reach the server after the first.
      [second, { kodeId: 'T4GUH2M9UP', odometer: 40_100, type: 'Relevé kilométrique' }],
    ];
    for (const [page, repair] of entries) await recordRepair(page, repair);
    for (const page of [first, second]) {
      await expect.poll(async () => waitingIn((await indicator(page)).label)).toBe(entries.length);
    }

    await ctx.setOffline(false);
    for (const page of [first, second]) {
      await expect.poll(() => indicator(page), SYNC_TIMEOUT).toEqual({ online: true, label: 'En ligne' });
    }
    const stored = await serverRepairs(e2e.portal.url, account);
    const summary = (repair: { kodeId: string; odometer: number }) => `${repair.kodeId} ${repair.odometer}`;
    expect(
      stored.map((repair) => summary({ kodeId: repair.vehicle.kode_id, odometer: repair.odometer })).sort(),
    ).toEqual(entries.map(([, repair]) => summary(repair)).sort());
    // A vehicle's readings arrive in the order they were entered.
    const t4 = stored.filter((repair) => repair.vehicle.kode_id === 'T4GUH2M9UP');
    const byCreation = [...t4].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
    expect(byCreation.map((repair) => repair.odometer)).toEqual([40_000, 40_100]);

    // Every answered POST carried a different key; no tab sent while the other one was sending.
    const posts = { first: await repairPosts(first), second: await repairPosts(second) };
    const answered = [...posts.first, ...posts.second].filter((post) => post.status !== null);
    expect(answered.map((post) => post.status)).toEqual(answered.map(() => 201));
    expect(new Set(answered.map((post) => post.key)).size).toBe(entries.length);
    for (const a of posts.first) {
      for (const b of posts.second) {
        const overlap = a.start < (b.end ?? Infinity) && b.start < (a.end ?? Infinity);
        expect(overlap, `tab 1 sent ${a.body.kode_id} while tab 2 sent ${b.body.kode_id}`).toBe(false);
      }
    }

    for (const page of [first, second]) {
      await openTab(page, 'Historique');
      await expect.poll(() => statuses(page)).toEqual(entries.map(() => 'synced'));
    }
    await screenshot(second, 'offline-sync-two-tabs');
  });
});
