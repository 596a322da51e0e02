/**
 * Figure 2, start-up as on a tablet: Chromium with its CPU slowed 4x (CDP
 * Emulation.setCPUThrottlingRate), time from navigation start to the app's `dashboard-interactive`
 * mark (set when the Add-repair form's kode_id input is mounted and enabled: the mechanic can type),
 * and, beside it, to the first contentful paint (the prerendered form on show, not yet live).
 *
 * - cold: a signed-in tablet (refresh cookie of "remember me", account in IndexedDB) with no code:
 *   service worker and caches cleared, HTTP cache bypassed; every script comes over the (loopback)
 *   network. A new tab per run.
 * - warm offline: the service worker controls the page and has precached the shell, and the tablet
 *   has started this version once from it (warmCodeCache); the context is offline
 *   (context.setOffline(true)) and the page is reloaded. The session stands on the
 *   cached user (the refresh fails for lack of network). One context, reloaded once per run.
 * - typing from the first paint: a warm offline start where the mechanic starts typing the KODE ID and
 *   the odometer reading as soon as the prerendered form is painted (first contentful paint), before
 *   the app is live: each keystroke's Event Timing duration (its interaction's worst event), and the
 *   characters that did not reach the fields once the app is live.
 * - typing: after each warm offline start, a mechanic types a KODE ID and an odometer reading, key
 *   by key, still at 4x CPU. Interaction to Next Paint is read from the page's Event Timing entries:
 *   the longest interaction (with fewer than 50, INP is the worst one). Interactions shorter than
 *   16 ms, the smallest threshold Event Timing reports, count as 16 ms.
 */
import type { Browser, Page } from 'playwright-core';
import {
  firstContentfulPaintAt,
  forgetCode,
  interactiveAt,
  newBenchContext,
  TABLET_CPU_SLOWDOWN,
  throttleCpu,
  signInThroughForm,
  waitForServiceWorkerControl,
  warmCodeCache,
} from './lib/browser';
import { registerPartner } from './lib/portal';

export interface StartupRuns {
  coldMs: number[];
  /** First contentful paint of each cold run: the prerendered form on show, before it is live. */
  coldPaintMs: number[];
  warmOfflineMs: number[];
  warmOfflinePaintMs: number[];
  /** Interaction to Next Paint while typing in the KODE ID and odometer fields, one per warm run. */
  typingInpMs: number[];
  /** Typing from the first paint of a warm offline start: the worst keystroke of each run. */
  firstPaintTypingMs: number[];
  /** Characters typed from the first paint that were not in the fields once the app was live, per run. */
  firstPaintTypingLost: number[];
}

const KODE_ID = 'KODE000001';
const ODOMETER = '123456';

/**
 * Records every interaction of the page from its very start (an init script, so the keystrokes made
 * before any of the app's code runs are counted too), each by its worst event's duration.
 */
function recordFromTheStart(floor: number): void {
  const worst = new Map<number, number>();
  Object.assign(window, { benchEarlyInteractions: worst });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[]) {
      if (entry.interactionId)
        worst.set(entry.interactionId, Math.max(worst.get(entry.interactionId) ?? 0, entry.duration));
    }
  }).observe({ type: 'event', durationThreshold: floor, buffered: true } as PerformanceObserverInit);
}

/**
 * One warm offline start typed into from its first paint: the worst keystroke, and how many of the
 * characters typed are missing from the fields once the app is live.
 */
async function typingFromFirstPaint(page: Page): Promise<{ worstMs: number; lost: number }> {
  await page.reload({ waitUntil: 'commit' });
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, {
    polling: 'raf',
    timeout: 30_000,
  });
  await typeAsMechanic(page, 'input[maxlength="10"]', KODE_ID);
  await typeAsMechanic(page, 'input[name="odometer"]', ODOMETER);
  await interactiveAt(page);
  // The last keystrokes' entries are delivered after the next paint.
  await page.waitForTimeout(500);
  const { durations, kode, odometer } = await page.evaluate(() => ({
    durations: [
      ...(window as unknown as { benchEarlyInteractions: Map<number, number> }).benchEarlyInteractions.values(),
    ],
    kode: document.querySelector<HTMLInputElement>('input[maxlength="10"]')?.value ?? '',
    odometer: document.querySelector<HTMLInputElement>('input[name="odometer"]')?.value ?? '',
  }));
  // A character lost or out of place counts once, so does one too many.
  const missing = (typed: string, kept: string) =>
    [...typed].filter((character, index) => kept[index] !== character).length + Math.max(0, kept.length - typed.length);
  return {
    worstMs: Math.max(EVENT_TIMING_FLOOR_MS, ...durations),
    lost: missing(KODE_ID, kode) + missing(ODOMETER, odometer.replace(/\D/g, '')),
  };
}

/** The smallest duration Event Timing reports (its `durationThreshold` floor). */
const EVENT_TIMING_FLOOR_MS = 16;
const KEY_DELAY_MS = 60;

/**
 * Starts recording the page's interactions from now on (Event Timing), each by its worst event's
 * duration; a later call starts a new record.
 */
export async function recordInteractions(page: Page): Promise<void> {
  await page.evaluate((floor) => {
    const worst = new Map<number, number>();
    const since = performance.now();
    Object.assign(window, { benchInteractions: worst });
    new PerformanceObserver((list) => {
      // TypeScript's DOM library lacks interactionId (Event Timing level 1 has it).
      for (const entry of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[]) {
        if (entry.interactionId && entry.startTime >= since)
          worst.set(entry.interactionId, Math.max(worst.get(entry.interactionId) ?? 0, entry.duration));
      }
    }).observe({ type: 'event', durationThreshold: floor, buffered: true } as PerformanceObserverInit);
  }, EVENT_TIMING_FLOOR_MS);
}

/** The worst interaction recorded since recordInteractions (with fewer than 50, that is the INP). */
export async function worstInteraction(page: Page): Promise<number> {
  // Entries are delivered after the next paint: give the last keystroke's time to arrive.
  await page.waitForTimeout(500);
  const durations = await page.evaluate(() => [
    ...(window as unknown as { benchInteractions: Map<number, number> }).benchInteractions.values(),
  ]);
  return Math.max(EVENT_TIMING_FLOOR_MS, ...durations);
}

/** Types key by key, as a mechanic would, into the field `selector` names. */
export async function typeAsMechanic(page: Page, selector: string, text: string): Promise<void> {
  await page.locator(selector).first().click();
  await page.keyboard.type(text, { delay: KEY_DELAY_MS });
}

/** Types into the entry form as a mechanic would and returns the worst interaction's duration. */
async function typingInp(page: Page): Promise<number> {
  await recordInteractions(page);
  await typeAsMechanic(page, 'input[maxlength="10"]', KODE_ID);
  await typeAsMechanic(page, 'input[name="odometer"]', ODOMETER);
  return worstInteraction(page);
}

export async function measureStartup(browser: Browser, baseUrl: string, runs: number): Promise<StartupRuns> {
  const account = await registerPartner(baseUrl, 'startup');

  // Cold: one signed-in tablet; before each run the code is forgotten (service worker, caches, HTTP
  // cache bypassed) and a new tab opens the portal.
  const coldMs: number[] = [];
  const coldPaintMs: number[] = [];
  const cold = await newBenchContext(browser);
  try {
    const first = await cold.newPage();
    await signInThroughForm(first, baseUrl, account);
    await first.close();
    for (let run = 0; run < runs; run++) {
      const page = await cold.newPage();
      await forgetCode(page, baseUrl);
      await throttleCpu(page, TABLET_CPU_SLOWDOWN);
      await page.goto(`${baseUrl}/`);
      coldMs.push(await interactiveAt(page));
      coldPaintMs.push(await firstContentfulPaintAt(page));
      await page.close();
    }
  } finally {
    await cold.close();
  }

  // Warm offline: the service worker in control, the tablet offline, the page reloaded.
  const warmOfflineMs: number[] = [];
  const warmOfflinePaintMs: number[] = [];
  const typingInpMs: number[] = [];
  const firstPaintTypingMs: number[] = [];
  const firstPaintTypingLost: number[] = [];
  const context = await newBenchContext(browser);
  try {
    const page = await context.newPage();
    await signInThroughForm(page, baseUrl, account);
    await waitForServiceWorkerControl(page);
    await interactiveAt(page);
    await warmCodeCache(page);
    await context.setOffline(true);
    const cdp = await throttleCpu(page, TABLET_CPU_SLOWDOWN);
    for (let run = 0; run < runs; run++) {
      await page.reload();
      // The throttle is per page target and survives reloads; set again in case a navigation reset it.
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: TABLET_CPU_SLOWDOWN });
      const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
      if (!controlled) throw new Error('the warm offline run was not served by the service worker');
      warmOfflineMs.push(await interactiveAt(page));
      warmOfflinePaintMs.push(await firstContentfulPaintAt(page));
      typingInpMs.push(await typingInp(page));
    }
    // Typing from the first paint: the same tablet, the fields emptied by each reload.
    await context.addInitScript(recordFromTheStart, EVENT_TIMING_FLOOR_MS);
    for (let run = 0; run < runs; run++) {
      const typed = await typingFromFirstPaint(page);
      firstPaintTypingMs.push(typed.worstMs);
      firstPaintTypingLost.push(typed.lost);
    }
  } finally {
    await context.close();
  }
  return {
    coldMs,
    coldPaintMs,
    warmOfflineMs,
    warmOfflinePaintMs,
    typingInpMs,
    firstPaintTypingMs,
    firstPaintTypingLost,
  };
}
