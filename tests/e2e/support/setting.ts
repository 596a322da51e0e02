/**
 * The usual setting of an e2e test file: the local map stubs (tiles and geocoder), the real portal
 * on a fresh embedded database, and one Chromium. Started before the file's tests (before its own
 * beforeAll hooks, which may use it) and stopped after them.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { startPortal, type Portal } from './server';
import { startMapStubs, type MapStubs } from './stubs';

export interface E2eSetting {
  readonly stubs: MapStubs;
  readonly portal: Portal;
  readonly browser: Browser;
}

/** Call at the top level of a test file; the fields are there once the file's tests run. */
export function useE2eSetting(): E2eSetting {
  const setting: { stubs?: MapStubs; portal?: Portal; browser?: Browser } = {};
  beforeAll(async () => {
    setting.stubs = await startMapStubs();
    setting.portal = await startPortal(setting.stubs);
    setting.browser = await launchBrowser();
  });
  afterAll(async () => {
    await setting.browser?.close();
    await setting.portal?.stop();
    await setting.stubs?.close();
  });
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`the e2e ${name} is used before it started (outside a test or hook)`);
    return value;
  };
  return {
    get stubs() {
      return started(setting.stubs, 'stubs');
    },
    get portal() {
      return started(setting.portal, 'portal');
    },
    get browser() {
      return started(setting.browser, 'browser');
    },
  };
}
