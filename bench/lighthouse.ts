/**
 * Figure 6, Lighthouse (the npm package, 12.8: the newest line that runs on Node 20; 13 needs Node 22)
 * with the Debian Chromium, on /login and on the dashboard. Lighthouse's default settings: a mobile
 * device with simulated throttling (slow 4G, 4x CPU), categories performance, accessibility and best
 * practices. It connects to a Chromium that Playwright launched with --remote-debugging-port; for the
 * dashboard, the partner first signs in through the form in that browser's profile, so the portal
 * opens signed in.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { freePort } from '../tests/e2e/support/server';
import { BENCH_CHROMIUM_ARGS, CHROMIUM_PATH, TABLET } from './lib/browser';
import { signInThroughForm } from './lib/browser';
import { registerPartner } from './lib/portal';

export const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
export type LighthouseCategory = (typeof LIGHTHOUSE_CATEGORIES)[number];

export interface LighthouseRun {
  scores: Record<LighthouseCategory, number>;
  /** Audits that lost points, with their score, for the report. */
  failing: string[];
  lighthouseVersion: string;
}

export type LighthousePage = 'login' | 'dashboard';

/** Trace errors Lighthouse itself says to run again for (seen on a loaded 2-core machine). */
const RETRIED_RUNTIME_ERRORS = new Set(['NO_NAVSTART', 'NO_FCP', 'NO_LCP']);

async function audit(url: string, port: number, attemptsLeft = 2): Promise<LighthouseRun> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...LIGHTHOUSE_CATEGORIES],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) {
    if (RETRIED_RUNTIME_ERRORS.has(lhr.runtimeError.code) && attemptsLeft > 0)
      return audit(url, port, attemptsLeft - 1);
    throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  }
  const scores = {} as Record<LighthouseCategory, number>;
  const failing: string[] = [];
  for (const category of LIGHTHOUSE_CATEGORIES) {
    const entry = lhr.categories[category];
    scores[category] = Math.round((entry?.score ?? 0) * 100);
    for (const ref of entry?.auditRefs ?? []) {
      const item = lhr.audits[ref.id];
      if (ref.weight > 0 && item && item.score !== null && item.score < 1) {
        failing.push(
          `${category}: ${ref.id} (${Math.round(item.score * 100)})${item.displayValue ? ` ${item.displayValue}` : ''}`,
        );
      }
    }
  }
  return { scores, failing, lighthouseVersion: lhr.lighthouseVersion };
}

export async function measureLighthouse(
  baseUrl: string,
  runs: number,
): Promise<Record<LighthousePage, LighthouseRun[]>> {
  const account = await registerPartner(baseUrl, 'lighthouse');
  const port = await freePort();
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...BENCH_CHROMIUM_ARGS, `--remote-debugging-port=${port}`, '--remote-debugging-address=127.0.0.1'],
    // No viewport from Playwright: Lighthouse emulates its own device, and a second emulation applied
    // to the tab Lighthouse opens would resize the page mid-run (a layout shift that is not the app's).
    viewport: null,
    locale: TABLET.locale,
  });
  try {
    const results: Record<LighthousePage, LighthouseRun[]> = { login: [], dashboard: [] };
    // Signed out first: with a session, /login sends the visitor on to the dashboard.
    for (let run = 0; run < runs; run++) {
      results.login.push(await audit(`${baseUrl}/login`, port));
    }
    // Signed in through the form in this profile: the cookie and the account in IndexedDB (Lighthouse
    // clears the service worker and caches before each run, not these).
    const page = await context.newPage();
    await signInThroughForm(page, baseUrl, account);
    await page.close();
    for (let run = 0; run < runs; run++) {
      results.dashboard.push(await audit(`${baseUrl}/`, port));
    }
    return results;
  } finally {
    await context.close();
    await fs.rm(profile, { recursive: true, force: true });
  }
}
