/**
 * Chromium for the benchmarks: the system Chromium via playwright-core with the e2e flags, plus a
 * host-resolver rule that makes every name but loopback unresolvable, so nothing leaves the machine
 * without Playwright intercepting requests (interception would add latency to every request timed).
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../tests/e2e/support/browser';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const LOOPBACK_ONLY = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1';
export const BENCH_CHROMIUM_ARGS = [...CHROMIUM_ARGS, LOOPBACK_ONLY];

/** The tablet of the benchmarks: landscape 1024×768, touch, French. */
export const TABLET = { viewport: { width: 1024, height: 768 }, locale: 'fr-DZ', hasTouch: true } as const;

/** The CPU slowdown applied to emulate a workshop tablet (Chrome DevTools' "4x slowdown"). */
export const TABLET_CPU_SLOWDOWN = 4;

export const INTERACTIVE_MARK = 'dashboard-interactive';

export function launchBenchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...BENCH_CHROMIUM_ARGS, ...extraArgs],
  });
}

export function newBenchContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ ...TABLET, colorScheme: 'light', serviceWorkers: 'allow' });
}

/**
 * Signs in through the login form with "remember me", as a mechanic does, and waits until the
 * dashboard can be typed in. The tablet then holds what a signed-in tablet holds: the refresh cookie
 * and the current account in IndexedDB (without the latter the app does not even try a refresh).
 */
export async function signInThroughForm(
  page: Page,
  baseUrl: string,
  account: { email: string; password: string },
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.locator('input[name="email"]').fill(account.email);
  await page.locator('input[name="password"]').fill(account.password);
  await page.getByText('Se souvenir de moi').click();
  await page.locator('form button[type="submit"]').click();
  await interactiveAt(page);
}

/**
 * Back to a first visit for the code: the service worker and its caches removed, and the HTTP cache
 * bypassed for `page`, while the session (cookie, IndexedDB) stays. The next navigation of `page`
 * fetches every script over the network.
 */
export async function forgetCode(page: Page, baseUrl: string): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', {
    origin: new URL(baseUrl).origin,
    storageTypes: 'service_workers,cache_storage',
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  return cdp;
}

export async function throttleCpu(page: Page, rate: number): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  return cdp;
}

/** Waits for a Performance Timeline entry and returns its time since navigation start (ms). */
async function timelineEntryAt(page: Page, name: string, type: 'mark' | 'paint', timeoutMs: number): Promise<number> {
  const handle = await page.waitForFunction(
    ([entryName, entryType]) => performance.getEntriesByName(entryName, entryType)[0]?.startTime ?? false,
    [name, type] as const,
    { timeout: timeoutMs, polling: 50 },
  );
  return (await handle.jsonValue()) as number;
}

/** Waits for the app's start-up mark and returns its time since navigation start (ms). */
export function interactiveAt(page: Page, timeoutMs = 60_000): Promise<number> {
  return timelineEntryAt(page, INTERACTIVE_MARK, 'mark', timeoutMs);
}

/**
 * The page's first contentful paint (Paint Timing), ms since navigation start like the mark: when the
 * prerendered page was first on show. Chromium reports it a frame or so after the paint, so it waits.
 */
export function firstContentfulPaintAt(page: Page, timeoutMs = 10_000): Promise<number> {
  return timelineEntryAt(page, 'first-contentful-paint', 'paint', timeoutMs);
}

/** Loads the page once more until the service worker controls it, with the shell precached. */
export async function waitForServiceWorkerControl(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
  await page.waitForFunction(
    async () => {
      for (const name of await caches.keys()) {
        if (!name.startsWith('workbox-precache')) continue;
        const keys = await (await caches.open(name)).keys();
        if (keys.some((request) => new URL(request.url).pathname === '/index.html')) return true;
      }
      return false;
    },
    null,
    { timeout: 30_000, polling: 200 },
  );
}

/**
 * One start from the service worker's cache, not measured. V8 writes its code cache for the app's
 * modules at the first start served from there (some 100 ms at 4x CPU, and the compilation it
 * caches) and reads it at every start after: a tablet pays this once per version of the app, at the
 * first start after an update, not at the daily start the warm figures stand for.
 */
export async function warmCodeCache(page: Page): Promise<void> {
  await page.reload();
  await interactiveAt(page);
}

/** Used JS heap of the page after a full garbage collection (CDP Runtime.getHeapUsage), in bytes. */
export async function heapUsedAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    const usage = await cdp.send('Runtime.getHeapUsage');
    return usage.usedSize;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
