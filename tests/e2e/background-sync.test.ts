/**
 * Background sync in Chromium (docs/ARCHITECTURE.md#the-offline-model-in-practice): entries recorded
 * offline leave from the service worker when the browser fires the outbox's sync, with every page of
 * the portal closed; its own refresh rotates the cookie the pages then use; a page sending at the same
 * moment still stores each entry once; and a refresh the server refuses leaves the entries waiting
 * for the next sign-in. The sync is fired through the DevTools protocol, as the browser would fire it
 * once the connection is back.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { OUTBOX_SYNC_TAG } from '../../src/lib/entries/background';
import { fireSync as fireSyncAt } from './support/background-sync';
import { screenshot } from './support/browser';
import {
  type Account,
  contextPerTest,
  dashboardHeading,
  goOffline,
  historyRows,
  openTab,
  readTabletDatabase,
  recordRepair,
  registerPartner,
  type RepairToRecord,
  serverRepairs,
  signIn,
  SYNC_TIMEOUT,
  waitForPrecache,
  waitForServiceWorker,
} from './support/offline';
import { useE2eSetting } from './support/setting';

const e2e = useE2eSetting();
const tablet = contextPerTest(() => e2e.browser);

const REPAIRS: RepairToRecord[] = [
  { kodeId: 'KODE000001', odometer: 120_500, type: 'Vidange' },
  { kodeId: 'KODE000002', odometer: 87_000, type: 'Révision générale' },
  { kodeId: 'KODE000001', odometer: 120_900, type: 'Relevé kilométrique' },
];

const summary = (kodeId: string, odometer: number) => `${kodeId} ${odometer}`;
const EXPECTED = REPAIRS.map((repair) => summary(repair.kodeId, repair.odometer)).sort();

async function storedSummaries(account: Account): Promise<string[]> {
  return (await serverRepairs(e2e.portal.url, account))
    .map((repair) => summary(repair.vehicle.kode_id, repair.odometer))
    .sort();
}

/** Signed in, under the service worker, three repairs recorded offline: they wait in the outbox. */
async function threeEntriesOffline(account: Account): Promise<{ context: BrowserContext; page: Page }> {
  const context = await tablet.open();
  const page = await context.newPage();
  await signIn(page, e2e.portal.url, account);
  await waitForServiceWorker(page);
  await waitForPrecache(page);
  await goOffline(context);
  for (const repair of REPAIRS) await recordRepair(page, repair);
  await expect.poll(async () => outboxStates(page)).toEqual(['queued', 'queued', 'queued']);
  // The page asked the browser for the outbox's sync, which waits for the network.
  expect(await syncTags(page)).toEqual([OUTBOX_SYNC_TAG]);
  return { context, page };
}

/** The one-off syncs waiting in Chromium (SyncManager.getTags, not in TypeScript's DOM library). */
function syncTags(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
      sync: { getTags(): Promise<string[]> };
    };
    return registration.sync.getTags();
  });
}

async function outboxStates(page: Page): Promise<string[]> {
  return ((await readTabletDatabase(page)).outbox ?? []).map((row) => (row as { state: string }).state);
}

async function refreshCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((cookie) => cookie.name === 'refresh_token')?.value;
}

/** Fires the outbox's sync in the worker, as Chromium does once the connection is back. */
const fireSync = (page: Page) => fireSyncAt(page, e2e.portal.url);

async function historyStatuses(page: Page): Promise<string[]> {
  await openTab(page, 'Historique');
  return (await historyRows(page)).map((row) => row.status);
}

describe('background sync', () => {
  it('sends the entries from the service worker with every page of the portal closed', async () => {
    const account = await registerPartner(e2e.portal.url, 'bgsync');
    const { context, page } = await threeEntriesOffline(account);
    // The panel promises it, in this browser.
    await page.getByRole('button', { name: /détails de l'envoi/ }).click();
    await page.getByText('Les saisies partent même portail fermé, dès que la connexion revient.').waitFor();
    await page.keyboard.press('Escape');

    // Only a blank page keeps the browser context; no page of the portal runs a sender.
    const blank = await context.newPage();
    await page.close();
    const cookieBefore = await refreshCookie(context);
    expect(await storedSummaries(account)).toEqual([]);
    // Chromium fires the sync by itself once its (emulated) network is back; firing it through the
    // DevTools protocol makes the moment certain. Either way only the worker can send now.
    await context.setOffline(false);
    await fireSync(blank);
    await expect.poll(() => storedSummaries(account), SYNC_TIMEOUT).toEqual(EXPECTED);
    // The worker refreshed the session itself: the browser kept the rotated cookie of its answer.
    const cookieAfter = await refreshCookie(context);
    expect(cookieAfter).toBeTruthy();
    expect(cookieAfter).not.toBe(cookieBefore);

    // A page opened again refreshes with that cookie: still signed in, and the entries are synced.
    const again = await context.newPage();
    await again.goto(`${e2e.portal.url}/`);
    await dashboardHeading(again).waitFor();
    await expect.poll(() => historyStatuses(again), SYNC_TIMEOUT).toEqual(['synced', 'synced', 'synced']);
    expect(await outboxStates(again)).toEqual([]);
    expect(await storedSummaries(account)).toEqual(EXPECTED);
    await screenshot(again, 'background-sync-synced');
  });

  it('with a page of the portal sending at the same moment, stores each entry once and keeps the page signed in', async () => {
    const account = await registerPartner(e2e.portal.url, 'bgrace');
    const { context, page } = await threeEntriesOffline(account);
    tablet.allow(/net::ERR_CONNECTION_RESET/);
    // The page's sender runs, but every answer it gets is lost on the way back (the server stores the
    // repair): only the worker's sends, under the same keys, can take the entries out of the outbox.
    await page.route('**/api/partner/repairs', async (route) => {
      await route.fetch();
      await route.abort('connectionreset');
    });

    // The page's 'online' sender and the worker's sync start together.
    await Promise.all([context.setOffline(false), fireSync(page)]);
    await expect.poll(() => outboxStates(page), SYNC_TIMEOUT).toEqual([]);
    expect(await storedSummaries(account)).toEqual(EXPECTED);
    await expect.poll(() => historyStatuses(page), SYNC_TIMEOUT).toEqual(['synced', 'synced', 'synced']);

    // Whichever refreshed last, the page's next refresh still works.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.reload();
    await dashboardHeading(page).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await storedSummaries(account)).toEqual(EXPECTED);
  });

  it('when the worker cannot refresh the session, the entries wait for the next sign-in and leave then', async () => {
    const account = await registerPartner(e2e.portal.url, 'bgrefused');
    const { context, page } = await threeEntriesOffline(account);
    const blank = await context.newPage();
    await page.close();
    // The session is gone (here: its cookie), as after a revocation or a long absence.
    await context.clearCookies();
    await context.setOffline(false);

    await fireSync(blank);
    const again = await context.newPage();
    // Opening the portal: its own refresh is refused too, so it asks for a sign-in.
    await again.goto(`${e2e.portal.url}/`);
    await expect.poll(() => new URL(again.url()).pathname, SYNC_TIMEOUT).toBe('/login');
    await expect
      .poll(() => outboxStates(again), SYNC_TIMEOUT)
      .toEqual(['waiting_for_sign_in', 'waiting_for_sign_in', 'waiting_for_sign_in']);
    expect(await serverRepairs(e2e.portal.url, account)).toEqual([]);

    await signIn(again, e2e.portal.url, account);
    await expect.poll(() => storedSummaries(account), SYNC_TIMEOUT).toEqual(EXPECTED);
    await expect.poll(() => historyStatuses(again), SYNC_TIMEOUT).toEqual(['synced', 'synced', 'synced']);
  });
});
