/**
 * The dashboard's data from the first minute: the history and the statistics kept at sign-in show
 * offline although the history tab was never opened online; an entry whose answer was lost, then
 * refused with 503s, is listed once at every step, through a reload too; and a toast over the form
 * never takes the mechanic's tap.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './support/browser';
import {
  type Account,
  contextPerTest,
  findVehicle,
  goOffline,
  type HistoryRow,
  historyRows,
  indicator,
  openTab,
  recordRepair,
  registerPartner,
  reloadOffline,
  serverRepairs,
  signIn,
  SYNC_TIMEOUT,
  waitForPrecache,
  waitForServiceWorker,
  waitingIn,
} from './support/offline';
import { recordRepairViaApi } from './support/pages';
import { DEMO_PARTNER } from './support/server';
import { startDroppingProxy, type DroppingProxy } from './support/proxy';
import { useE2eSetting } from './support/setting';
import { scaled } from '../support/host-speed';

const e2e = useE2eSetting();
const tablet = contextPerTest(() => e2e.browser);

const statistics = (page: Page) => page.getByRole('region', { name: 'Statistiques' });
const totalTile = (page: Page) => statistics(page).locator('dl, [data-part="root"]').first();
const pendingLine = (page: Page) => page.getByTestId('statistics-pending');

/**
 * Reads the history's rows every 100 ms for `ms` and returns every distinct reading, so a test can
 * assert that no moment of a transition listed an entry twice, not only where it ended.
 */
async function watchRows(page: Page, ms: number): Promise<HistoryRow[][]> {
  const seen: HistoryRow[][] = [];
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const rows = await historyRows(page);
    const last = seen.at(-1);
    if (!last || JSON.stringify(last) !== JSON.stringify(rows)) seen.push(rows);
    await page.waitForTimeout(100);
  }
  return seen;
}

const statusesOf = (readings: HistoryRow[][]) => readings.map((rows) => rows.map((row) => row.status));

describe('history and statistics from the first minute', () => {
  it('show offline in a first session although the history was never opened online', async () => {
    const account = await registerPartner(e2e.portal.url, 'first');
    // Another tablet of the garage recorded two repairs before this one was ever used.
    await recordRepairViaApi(e2e.portal.url, account, {
      kode_id: 'KODE000002',
      repair_type_id: 'oil_change',
      odometer: 50_000,
    });
    await recordRepairViaApi(e2e.portal.url, account, {
      kode_id: 'KODE000003',
      repair_type_id: 'oil_change',
      odometer: 70_000,
    });

    const ctx = await tablet.open();
    const page = await ctx.newPage();
    await signIn(page, e2e.portal.url, account);
    await waitForServiceWorker(page);
    await waitForPrecache(page);
    await expect.poll(() => totalTile(page).innerText()).toMatch(/Saisies au total\s+2/);

    await ctx.setOffline(true);
    await openTab(page, 'Historique');
    await expect
      .poll(async () => (await historyRows(page)).map((row) => [row.kodeId, row.status]))
      .toEqual([
        ['KODE000003', 'synced'],
        ['KODE000002', 'synced'],
      ]);
    await expect(page.getByTestId('history-refreshed-at').innerText()).resolves.toMatch(
      /^Actualisé depuis le serveur le \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/,
    );
    await expect(page.getByTestId('statistics-fetched-at').innerText()).resolves.toMatch(
      /^Chiffres du serveur au \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/,
    );

    // An entry recorded offline counts as pending beside the server's total.
    await openTab(page, 'Nouvelle saisie');
    await recordRepair(page, { kodeId: 'KODE000001', odometer: 61_000, type: 'Vidange' });
    await expect.poll(() => pendingLine(page).innerText()).toBe('+1 en attente d’envoi');
    await screenshot(page, 'first-session-statistics-offline');

    // After a reload offline, the same numbers and the same three entries.
    await reloadOffline(page);
    await expect.poll(() => totalTile(page).innerText()).toMatch(/Saisies au total\s+2\s+\+1 en attente d’envoi/);
    await openTab(page, 'Historique');
    await expect
      .poll(async () => (await historyRows(page)).map((row) => [row.kodeId, row.status]))
      .toEqual([
        ['KODE000001', 'pending'],
        ['KODE000003', 'synced'],
        ['KODE000002', 'synced'],
      ]);
    await screenshot(page, 'first-session-history-offline');

    // Back online: the entry is sent once, and the numbers follow.
    await ctx.setOffline(false);
    await expect
      .poll(async () => (await historyRows(page)).map((row) => row.status), SYNC_TIMEOUT)
      .toEqual(['synced', 'synced', 'synced']);
    await expect.poll(() => totalTile(page).innerText(), SYNC_TIMEOUT).toMatch(/^Saisies au total\s+3$/);
    expect(await serverRepairs(e2e.portal.url, account)).toHaveLength(3);
  });
});

describe('an entry recorded offline', () => {
  /**
   * From now on, every status the history's entries show, as `status|text` of each entry at each change
   * of the page (a MutationObserver sees every render, however short): a flash between two polls too.
   */
  async function recordStatuses(page: Page): Promise<() => Promise<string[]>> {
    await page.evaluate(() => {
      const seen = new Set<string>();
      const read = () => {
        for (const entry of Array.from(document.querySelectorAll<HTMLElement>('[data-status]'))) {
          const text = entry.textContent ?? '';
          const shown = ['Envoi…', 'En attente', 'Envoyée', 'Refusée'].filter((label) => text.includes(label));
          seen.add(`${entry.dataset.status}|${shown.join(',')}`);
        }
      };
      new MutationObserver((records) => {
        for (const record of records) {
          if (record.attributeName === 'data-status' && record.oldValue) seen.add(`${record.oldValue}|(attribute)`);
        }
        read();
      }).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
        attributeOldValue: true,
        attributeFilter: ['data-status'],
      });
      (window as unknown as { historyStatuses: () => string[] }).historyStatuses = () => [...seen];
    });
    return () => page.evaluate(() => (window as unknown as { historyStatuses: () => string[] }).historyStatuses());
  }

  /**
   * One partner for both orientations and their retries: each test's entry stays on its tablet (checked
   * at the end), so each starts with an empty history. A registration per test took this file to the
   * server's 5 per address and hour, and a retry's was refused.
   */
  let account: Account;
  beforeAll(async () => {
    account = await registerPartner(e2e.portal.url, 'offline-status');
  });

  for (const orientation of ['landscape', 'portrait'] as const) {
    it(`reads "En attente" from the Insert on, never "Envoi…", while the tablet is offline (${orientation})`, async () => {
      const ctx = await tablet.open({ orientation });
      const page = await ctx.newPage();
      await signIn(page, e2e.portal.url, account);
      // The history's panel stays once opened: it shows the entry from the moment it is written.
      await openTab(page, 'Historique');
      await page.getByText('Aucune saisie pour le moment').waitFor();
      await openTab(page, 'Nouvelle saisie');
      // Its service worker too: a background sync it fired before it was offline would send the entry.
      await goOffline(ctx);
      const statuses = await recordStatuses(page);
      await recordRepair(page, { kodeId: 'KODE000001', odometer: 61_000, type: 'Vidange' });
      await openTab(page, 'Historique');
      // The sender tries the network at Insert, then again at its backoff (about 2 s, then 4 s).
      await page.waitForTimeout(7_000);
      expect(await historyRows(page)).toMatchObject([{ kodeId: 'KODE000001', status: 'pending' }]);
      expect((await statuses()).sort()).toEqual(['pending|En attente']);
      // Nothing left the tablet: the shared partner's history stays empty for the next test.
      expect(await serverRepairs(e2e.portal.url, account)).toEqual([]);
    });
  }
});

describe('an entry whose answer was lost, then refused with 503s', () => {
  /** Signs in through the proxy, then records an entry the server stores but whose answer is lost. */
  async function recordWithLostAnswer(
    proxy: DroppingProxy,
    account: Account,
    vehicle: { kodeId: string; vin: string },
  ): Promise<Page> {
    const ctx = await tablet.open();
    tablet.allow(
      /Failed to load resource: net::ERR_EMPTY_RESPONSE/,
      /Failed to load resource: the server responded with a status of 503/,
    );
    const page = await ctx.newPage();
    await signIn(page, proxy.url, account);
    await waitForServiceWorker(page);
    await waitForPrecache(page);
    await findVehicle(page, vehicle.kodeId, vehicle.vin);
    const dropped = proxy.dropNextResponseTo('POST', '/api/partner/repairs');
    await recordRepair(page, { kodeId: vehicle.kodeId, odometer: 98_000, type: 'Vidange' });
    expect(await dropped).toBe(201);
    await expect.poll(async () => waitingIn((await indicator(page)).label)).toBe(1);
    return page;
  }

  /** Every reading of the rows had at most one entry, and the last one is one of `lasts`. */
  function expectListedOnce(readings: HistoryRow[][], ...lasts: string[][]) {
    for (const rows of readings) expect(rows.length, JSON.stringify(statusesOf(readings))).toBeLessThanOrEqual(1);
    expect(lasts).toContainEqual(statusesOf(readings).at(-1));
  }

  it('is listed once when the history is first opened, without a reload', async () => {
    const account = await registerPartner(e2e.portal.url, 'first-open');
    const proxy = await startDroppingProxy(e2e.portal.url);
    try {
      const restoreSends = proxy.unavailable('POST', '/api/partner/repairs');
      const page = await recordWithLostAnswer(proxy, account, { kodeId: 'V3SMJ5P6FX', vin: 'UU1X3J606D0606362' });
      await openTab(page, 'Historique');
      expectListedOnce(await watchRows(page, 3_000), ['synced']);
      await expect.poll(async () => waitingIn((await indicator(page)).label)).toBe(0);
      restoreSends();
      expect(await serverRepairs(e2e.portal.url, account)).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('is listed once at every step through 503s and a reload, and stored once', async () => {
    const account = await registerPartner(e2e.portal.url, 'reload');
    const proxy = await startDroppingProxy(e2e.portal.url);
    try {
      const restoreSends = proxy.unavailable('POST', '/api/partner/repairs');
      const restoreHistory = proxy.unavailable('GET', '/api/partner/repairs');
      const page = await recordWithLostAnswer(proxy, account, { kodeId: 'T4GUH2M9UP', vin: 'VF36SL2K6CM297511' });
      await openTab(page, 'Historique');
      // The sends meet 503s and the history cannot be refreshed: the entry waits, once. A retry may
      // be on its way when the watch ends (slow under load), so it is waiting or being sent.
      expectListedOnce(await watchRows(page, 4_000), ['pending'], ['sending']);
      await expect
        .poll(async () => (await historyRows(page)).map((row) => row.status), { timeout: scaled(10_000) })
        .toEqual(['pending']);
      await screenshot(page, 'lost-answer-pending');

      // Reloaded while the sends still fail: the refreshed history brings the stored entry.
      restoreHistory();
      await page.reload();
      await openTab(page, 'Historique');
      expectListedOnce(await watchRows(page, 4_000), ['synced']);
      await expect.poll(async () => waitingIn((await indicator(page)).label)).toBe(0);

      // The server comes back: nothing is left to send, nothing is stored twice.
      restoreSends();
      await page.reload();
      await openTab(page, 'Historique');
      expectListedOnce(await watchRows(page, 3_000), ['synced']);
      expect(await serverRepairs(e2e.portal.url, account)).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});

describe('a toast over the form', () => {
  type Box = { x: number; y: number; width: number; height: number };
  const overlap = (a: Box, b: Box): Box | null => {
    const x = Math.max(a.x, b.x);
    const y = Math.max(a.y, b.y);
    const width = Math.min(a.x + a.width, b.x + b.width) - x;
    const height = Math.min(a.y + a.height, b.y + b.height) - y;
    return width > 2 && height > 2 ? { x, y, width, height } : null;
  };

  /** The element's box once its entry animation is over (two readings 100 ms apart agree). */
  async function restingBox(locator: Locator): Promise<Box> {
    let previous = await locator.boundingBox();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const current = await locator.boundingBox();
      if (current && JSON.stringify(current) === JSON.stringify(previous)) return current;
      previous = current;
    }
  }

  const settings = [
    { orientation: 'landscape', language: 'fr' },
    { orientation: 'portrait', language: 'fr' },
    { orientation: 'landscape', language: 'ar' },
    { orientation: 'portrait', language: 'ar' },
  ] as const;

  for (const { orientation, language } of settings) {
    it(`lets a tap through to the consent checkbox, and still closes (${orientation}, ${language})`, async () => {
      const ctx = await tablet.open({ orientation });
      const page = await ctx.newPage();
      await signIn(page, e2e.portal.url, DEMO_PARTNER);
      if (language === 'ar') {
        await page.evaluate(() => localStorage.setItem('partner-language', 'ar'));
        await page.reload();
        await expect
          .poll(() => page.evaluate(() => document.documentElement.dir), { timeout: scaled(10_000) })
          .toBe('rtl');
      }
      const form = page.locator('form').first();
      const kodeId = form.locator('input[maxlength="10"]');
      // The consent's whole label takes the tap, as a mechanic aims at its text or its box.
      const checkbox = form.locator('label:has(input[name="consented"])');
      const checked = () => form.locator('input[name="consented"]').isChecked();
      await kodeId.waitFor();
      // A KODE ID that is too short: Find answers with an error toast, over the form's lower part.
      await kodeId.fill('ABC');
      await kodeId.locator('xpath=following-sibling::button[1]').click();
      const toast = page.locator('[data-scope="toast"][data-part="root"][data-type="error"]');
      await toast.waitFor();
      await expect.poll(() => toast.getAttribute('data-state')).toBe('open');
      const toastBox = await restingBox(toast);
      // Nothing of the toast's body takes a pointer: what lies under its middle is the page's.
      const underToast = await page.evaluate(
        ({ x, y }) => {
          const hit = document.elementFromPoint(x, y);
          return hit?.closest('[data-scope="toast"]') ? 'toast' : (hit?.tagName ?? 'nothing');
        },
        { x: toastBox.x + toastBox.width / 2, y: toastBox.y + toastBox.height / 2 },
      );
      expect(underToast).not.toBe('toast');

      // The whole entry fits a tablet and leaves the toasts' corner free (tests/e2e/layout.test.ts), so
      // the checkbox lies under a toast only where the page can be scrolled to put it there (a lower
      // screen): the page is scrolled as far as it goes towards that, and the tap goes to the part
      // under the toast if there is one, to the checkbox beside it otherwise.
      const before = (await checkbox.boundingBox())!;
      const lift = before.y + before.height / 2 - (toastBox.y + toastBox.height / 2);
      await page.evaluate((by) => window.scrollBy({ top: by, behavior: 'instant' }), lift);
      const checkboxBox = await restingBox(checkbox);
      const shared = overlap(toastBox, checkboxBox);
      await screenshot(page, `toast-over-form-${orientation}-${language}`);
      const target = shared ?? checkboxBox;
      expect(await checked()).toBe(false);
      await page.touchscreen.tap(target.x + target.width / 2, target.y + target.height / 2);
      await expect.poll(checked).toBe(true);
      expect(await kodeId.inputValue()).toBe('ABC');
      expect(await toast.getAttribute('data-state')).toBe('open');

      // The close button still takes its tap.
      await toast.locator('[data-part="close-trigger"]').click();
      await expect.poll(() => toast.count()).toBe(0);
    });
  }
});
