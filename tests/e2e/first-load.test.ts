/**
 * First-load weight (issue 5, figure 1), in bytes, which do not vary from run to run: what Chromium
 * fetches to show /login, the dashboard opened signed in, and the sign-in journey between them.
 * The map, the phone mask and the other languages' catalogs must never be part of it; and no first
 * load may grow past its ceiling (bench/first-load.ts, FIRST_LOAD_CEILINGS).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS, FIRST_LOAD_CEILINGS, KB, measureFirstLoad, type FirstLoad } from '../../bench/first-load';
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
  it('never carries the map, the phone mask or another language’s catalog', () => {
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
    // The dashboard does need it: the check recognises the library.
    expect(load.dashboard.chunks.some((chunk) => chunk.database)).toBe(true);
  });

  it('stays under its ceiling in gzip JavaScript', () => {
    expect(load.login.jsGzipBytes).toBeLessThanOrEqual(FIRST_LOAD_CEILINGS.login);
    expect(load.dashboard.jsGzipBytes).toBeLessThanOrEqual(FIRST_LOAD_CEILINGS.dashboard);
    expect(load.signInJourney.jsGzipBytes).toBeLessThanOrEqual(FIRST_LOAD_CEILINGS.signInJourney);
  });

  it('crosses the wire compressed', () => {
    for (const set of [load.login, load.dashboard, load.signInJourney]) {
      // Brotli at build time beats gzip level 6 on every script.
      expect(set.wireBytes).toBeGreaterThan(0);
      expect(set.wireBytes).toBeLessThan(set.jsGzipBytes + set.cssGzipBytes);
    }
  });
});
