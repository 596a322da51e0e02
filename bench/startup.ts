/**
 * Figure 2, start-up as on a tablet: Chromium with its CPU slowed 4x (CDP
 * Emulation.setCPUThrottlingRate), time from navigation start to the app's `dashboard-interactive`
 * mark (set when the Add-repair form's kode_id input is mounted and enabled: the mechanic can type).
 *
 * - cold: a signed-in tablet (refresh cookie of "remember me", account in IndexedDB) with no code:
 *   service worker and caches cleared, HTTP cache bypassed; every script comes over the (loopback)
 *   network. A new tab per run.
 * - warm offline: the service worker controls the page and has precached the shell; the context
 *   is offline (context.setOffline(true)) and the page is reloaded. The session stands on the
 *   cached user (the refresh fails for lack of network). One context, reloaded once per run.
 */
import type { Browser } from 'playwright-core';
import {
  forgetCode,
  interactiveAt,
  newBenchContext,
  TABLET_CPU_SLOWDOWN,
  throttleCpu,
  signInThroughForm,
  waitForServiceWorkerControl,
} from './lib/browser';
import { registerPartner } from './lib/portal';

export interface StartupRuns {
  coldMs: number[];
  warmOfflineMs: number[];
}

export async function measureStartup(browser: Browser, baseUrl: string, runs: number): Promise<StartupRuns> {
  const account = await registerPartner(baseUrl, 'startup');

  // Cold: one signed-in tablet; before each run the code is forgotten (service worker, caches, HTTP
  // cache bypassed) and a new tab opens the portal.
  const coldMs: number[] = [];
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
      await page.close();
    }
  } finally {
    await cold.close();
  }

  // Warm offline: the service worker in control, the tablet offline, the page reloaded.
  const warmOfflineMs: number[] = [];
  const context = await newBenchContext(browser);
  try {
    const page = await context.newPage();
    await signInThroughForm(page, baseUrl, account);
    await waitForServiceWorkerControl(page);
    await interactiveAt(page);
    await context.setOffline(true);
    const cdp = await throttleCpu(page, TABLET_CPU_SLOWDOWN);
    for (let run = 0; run < runs; run++) {
      await page.reload();
      // The throttle is per page target and survives reloads; set again in case a navigation reset it.
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: TABLET_CPU_SLOWDOWN });
      const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
      if (!controlled) throw new Error('the warm offline run was not served by the service worker');
      warmOfflineMs.push(await interactiveAt(page));
    }
  } finally {
    await context.close();
  }
  return { coldMs, warmOfflineMs };
}
