/**
 * What a new tablet keeps for offline use (issue: a new tablet's precache ≤ 2 MB): a first visit, a
 * sign-in, the service worker installed and in control, the dashboard left to fetch what it fetches in
 * the background; then the bytes of every response the worker's caches hold, by cache. Counted as kept
 * (the bodies' sizes, uncompressed): what the tablet's storage holds, and an upper bound of what crossed
 * the network (the portal sends scripts and pages compressed).
 */
import type { Browser } from 'playwright-core';
import { newBenchContext, signInThroughForm, waitForServiceWorkerControl } from './lib/browser';
import { registerPartner } from './lib/portal';

export const PRECACHE_GOAL_KB = 2 * 1024;

export interface PrecacheRun {
  /** Per cache name (the workbox precache, the prerendered pages, the scanner's code…): entries and KB. */
  caches: { name: string; entries: number; kb: number }[];
  /**
   * What every tablet keeps to start offline: every cache but the partner's data, the map's tiles and
   * the scanner's code (kept only where the browser has no barcode reader: Chrome on Android has one).
   */
  appKb: number;
  /** The scanner's WebAssembly, kept besides on a browser without a barcode reader (this bench's Chromium). */
  scannerKb: number;
}

/** Caches of the partner's own data or of the map, which grow with use and are not the app. */
const NOT_THE_APP = /^(pictures|odometer-photos|map-tiles|public-documents|scanner-code)/;

/** How long the page is left for its background fetches (the scanner's code, say) once it is live. */
const SETTLE_MS = 5_000;

export async function measurePrecache(browser: Browser, baseUrl: string): Promise<PrecacheRun> {
  const context = await newBenchContext(browser);
  try {
    const page = await context.newPage();
    await signInThroughForm(page, baseUrl, await registerPartner(baseUrl, 'precache'));
    await waitForServiceWorkerControl(page);
    await page.waitForTimeout(SETTLE_MS);
    const caches = await page.evaluate(async () => {
      const kept: { name: string; entries: number; kb: number }[] = [];
      for (const name of await globalThis.caches.keys()) {
        const cache = await globalThis.caches.open(name);
        const requests = await cache.keys();
        let bytes = 0;
        for (const request of requests) bytes += (await (await cache.match(request))?.arrayBuffer())?.byteLength ?? 0;
        kept.push({ name, entries: requests.length, kb: Math.round((bytes / 1024) * 10) / 10 });
      }
      return kept;
    });
    const sum = (kept: typeof caches) => Math.round(kept.reduce((total, cache) => total + cache.kb, 0));
    return {
      caches,
      appKb: sum(caches.filter((cache) => !NOT_THE_APP.test(cache.name))),
      scannerKb: sum(caches.filter((cache) => cache.name.startsWith('scanner-code'))),
    };
  } finally {
    await context.close();
  }
}
