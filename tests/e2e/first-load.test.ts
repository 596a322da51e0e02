/**
 * First-load weight (issue 5, figure 1), in bytes, which do not vary from run to run: what Chromium
 * fetches to show /login, the dashboard opened signed in, and the sign-in journey between them.
 * The map, the phone mask, the scanner, the vehicle's chart and the other languages' catalogs must
 * never be part of it;
 * /login and what the dashboard asks for before its form is typeable stay within their budgets
 * (180 KB of gzip JavaScript each); the dashboard's whole first load and the sign-in journey are
 * reported, under ceilings that keep them from growing unnoticed (bench/first-load.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS, CEILINGS, KB, measureFirstLoad, type FirstLoad } from '../../bench/first-load';
import { DEMO_PARTNER } from './support/server';
import { useE2eSetting } from './support/setting';

const e2e = useE2eSetting();
let load: FirstLoad;

beforeAll(async () => {
  load = await measureFirstLoad(e2e.browser, e2e.portal.url, DEMO_PARTNER);
  for (const [name, set] of Object.entries(load)) {
    process.stdout.write(
      `first load ${name}: ${(set.jsGzipBytes / KB).toFixed(1)} KB gzip JS, ${(set.wireBytes / KB).toFixed(1)} KB on the wire, ${set.chunks.length} files\n`,
    );
  }
});

describe('first load', () => {
  it('never carries the map, the phone mask, the scanner, the vehicle’s chart or another language’s catalog', () => {
    for (const set of [load.login, load.dashboard, load.signInJourney]) {
      expect(set.chunks.filter((chunk) => chunk.lazy !== null).map((chunk) => `${chunk.file} (${chunk.lazy})`)).toEqual(
        [],
      );
    }
  });

  it('shows /login within its budget of 180 KB of gzip JavaScript, without IndexedDB’s library', () => {
    expect(BUDGETS.loginJsGzip).toBe(180 * KB);
    expect(load.login.jsGzipBytes).toBeLessThanOrEqual(BUDGETS.loginJsGzip);
    expect(load.login.chunks.filter((chunk) => chunk.database).map((chunk) => chunk.file)).toEqual([]);
  });

  it('makes the dashboard’s form typeable within its budget of 180 KB of gzip JavaScript', () => {
    expect(BUDGETS.dashboardFirstScreenJsGzip).toBe(180 * KB);
    expect(load.dashboardFirstScreen.jsGzipBytes).toBeLessThanOrEqual(BUDGETS.dashboardFirstScreenJsGzip);
  });

  it('keeps the dashboard’s whole first load under its ceiling of 250 KB of gzip JavaScript', () => {
    expect(CEILINGS.dashboardJsGzip).toBe(250 * KB);
    expect(load.dashboard.jsGzipBytes).toBeLessThanOrEqual(CEILINGS.dashboardJsGzip);
  });

  it('makes the dashboard’s form typeable before IndexedDB’s library is even asked for', () => {
    expect(load.dashboardFirstScreen.chunks.length).toBeGreaterThan(0);
    expect(load.dashboardFirstScreen.chunks.filter((chunk) => chunk.database).map((chunk) => chunk.file)).toEqual([]);
    // It follows once the form is live: the dashboard's history and outbox need it.
    expect(load.dashboard.chunks.some((chunk) => chunk.database)).toBe(true);
  });

  it('keeps the sign-in journey under its ceiling in gzip JavaScript', () => {
    expect(load.signInJourney.jsGzipBytes).toBeLessThanOrEqual(CEILINGS.signInJourneyJsGzip);
  });

  it('crosses the wire compressed', () => {
    for (const set of [load.login, load.dashboard, load.signInJourney]) {
      // Brotli at build time beats gzip level 6 on every script.
      expect(set.wireBytes).toBeGreaterThan(0);
      expect(set.wireBytes).toBeLessThan(set.jsGzipBytes + set.cssGzipBytes);
    }
  });
});
