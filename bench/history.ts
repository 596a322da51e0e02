/**
 * Figure 4, history at scale: 5,000 synced repairs and 200 entries still queued in the tablet's
 * IndexedDB (rows of the app's own shapes), the page offline so the numbers are the tablet's alone
 * (the server is not asked for newer ones). With the tablet's 4x CPU slowdown, timed in the page from
 * the tap on the History tab until its rows are on screen; then "show more" (the next 50). Memory:
 * the page's JS heap after a garbage collection (CDP Runtime.getHeapUsage), before and with the tab
 * open. The list is paged, 50 rows at a time: the rows in the DOM are counted to show it.
 */
import type { Browser, Page } from 'playwright-core';
import type { HistoryRow } from '../src/lib/db';
import {
  heapUsedAfterGc,
  interactiveAt,
  newBenchContext,
  TABLET_CPU_SLOWDOWN,
  signInThroughForm,
  throttleCpu,
  waitForServiceWorkerControl,
} from './lib/browser';
import { currentSeq, outboxRows, putRows } from './lib/idb';
import { apiLogin, demoKodeIds, demoRepairTypeIds, registerPartner } from './lib/portal';
import { repairRecord } from '../tests/support/records';

export interface HistoryRun {
  showMs: number;
  showMoreMs: number;
  rowsInDom: number;
  rowsAfterShowMore: number;
  heapBeforeBytes: number;
  heapWithHistoryBytes: number;
}

function syncedRows(partnerId: string, count: number, newestMs: number): HistoryRow[] {
  const vehicles = demoKodeIds();
  const types = demoRepairTypeIds();
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(newestMs - i * 3_600_000).toISOString();
    const type = types[i % types.length]!;
    const record = repairRecord({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      vehicle: {
        kode_id: vehicles[i % vehicles.length]!,
        vin: 'VF1S1CD16RB267735',
        brand: 'Renault',
        name: 'Symbol',
        year: 2020,
      },
      repair_type: { id: type, name: type, name_ar: type, name_en: type },
      odometer: 200_000 - i,
      recorded_at: at,
      idempotency_key: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    });
    return { ...record, partnerId };
  });
}

/** Taps the History tab and resolves, in page time, once `rows` rows are rendered. */
async function timeUntilRows(page: Page, action: 'tab' | 'more', rows: number): Promise<number> {
  return page.evaluate(
    async ({ action, rows }) => {
      // No named inner functions here: the bundler would wrap them in a helper the page lacks.
      const target =
        action === 'tab'
          ? document.querySelectorAll<HTMLElement>('[role="tab"]')[1]
          : Array.from(document.querySelectorAll<HTMLButtonElement>('[role="tabpanel"] button')).find((button) =>
              /Afficher plus/.test(button.textContent ?? ''),
            );
      if (!target) throw new Error(`no ${action} control`);
      const start = performance.now();
      target.click();
      while (document.querySelectorAll('table tbody tr').length < rows) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      // Until the frame with the rows is painted.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - start;
    },
    { action, rows },
  );
}

export async function measureHistory(
  browser: Browser,
  baseUrl: string,
  options: { synced: number; queued: number; runs: number },
): Promise<HistoryRun[]> {
  const account = await registerPartner(baseUrl, 'history');
  const session = await apiLogin(baseUrl, account);
  const context = await newBenchContext(browser);
  const results: HistoryRun[] = [];
  try {
    const page = await context.newPage();
    await signInThroughForm(page, baseUrl, account);
    // The runs are offline: the worker must have the whole shell first (its install takes longer than
    // a page load since the prerendered pages joined the precache).
    await waitForServiceWorkerControl(page);
    await context.setOffline(true);
    const now = Date.now();
    // Queued entries are the newest (entered since the last sync); synced ones go back ~7 months.
    const queued = Array.from({ length: options.queued }, (_, i) => ({
      kode_id: demoKodeIds()[i % 60]!,
      repair_type_id: demoRepairTypeIds()[i % 12]!,
      odometer: 300_000 + i,
      recorded_at: new Date(now - i * 60_000).toISOString(),
    }));
    const history = syncedRows(session.userId, options.synced, now - options.queued * 60_000 - 60_000);
    for (let i = 0; i < history.length; i += 1000) await putRows(page, { history: history.slice(i, i + 1000) });
    await putRows(page, { outbox: outboxRows(session.userId, queued, (await currentSeq(page)) + 1) });

    for (let run = 0; run < options.runs; run++) {
      // Offline: the page comes from the service worker once it controls, else from the HTTP cache.
      await context.setOffline(false);
      // The dashboard, not a reload: the open tab is kept in the address (`/?tab=history` after a run).
      await page.goto(`${baseUrl}/`);
      await context.setOffline(true);
      await interactiveAt(page);
      const cdp = await throttleCpu(page, TABLET_CPU_SLOWDOWN);
      const heapBeforeBytes = await heapUsedAfterGc(page);
      const showMs = await timeUntilRows(page, 'tab', 12);
      const rowsInDom = await page.locator('table tbody tr').count();
      const showMoreMs = await timeUntilRows(page, 'more', 100);
      const rowsAfterShowMore = await page.locator('table tbody tr').count();
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      const heapWithHistoryBytes = await heapUsedAfterGc(page);
      await cdp.detach();
      results.push({ showMs, showMoreMs, rowsInDom, rowsAfterShowMore, heapBeforeBytes, heapWithHistoryBytes });
    }
  } finally {
    await context.close();
  }
  return results;
}
