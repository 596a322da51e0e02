/**
 * The e2e harness itself: the built PWA served by the real portal, Chromium cut off from the
 * internet, the map stubs and the dropping proxy. Screens are covered by their own files.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { blockedRequests, EXTERNAL_URL, newTabletContext, screenshot } from './support/browser';
import { captureOpenPages } from './support/failure-capture';
import { PROJECT_ROOT } from './support/paths';
import { startDroppingProxy, type DroppingProxy } from './support/proxy';
import { useE2eSetting } from './support/setting';

const e2e = useE2eSetting();
let proxy: DroppingProxy;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  proxy = await startDroppingProxy(e2e.portal.url);
  context = await newTabletContext(e2e.browser);
  page = await context.newPage();
});

afterAll(async () => {
  await proxy?.close();
});

/** fetch() run in the page: whether it got an answer, never throwing into the test. */
function fetchFromPage(target: Page, url: string, init: RequestInit = {}): Promise<boolean> {
  return target.evaluate(
    async ({ url, init }) => {
      try {
        await (await fetch(url, init)).arrayBuffer();
        return true;
      } catch {
        return false;
      }
    },
    { url, init },
  );
}

describe('e2e harness', () => {
  it('serves the built PWA', async () => {
    await page.goto(`${e2e.portal.url}/`);
    expect(await page.title()).toBe('Portail Partenaire Garage');
    expect(await page.getAttribute('html', 'lang')).toMatch(/^(fr|ar|en)/);
    await screenshot(page, 'smoke-home');
  });

  it('paints the app icon with the HTML: public/favicon.svg inline in the boot screen, nothing to fetch', async () => {
    // A page that is not prerendered (docs/ARCHITECTURE.md#prerendered-first-screens) shows the boot screen.
    const shell = await (await fetch(`${e2e.portal.url}/profile`)).text();
    const icon = (await fs.readFile(path.join(PROJECT_ROOT, 'public', 'favicon.svg'), 'utf8')).trim();
    const boot = /<div class="boot" aria-busy="true">([\s\S]*?)<\/div>/.exec(shell)?.[1] ?? '';
    expect(boot).toContain(`<svg width="72" height="72" aria-hidden="true" ${icon.slice('<svg '.length)}`);
    expect(boot).not.toContain('<img');
  });

  it('answers the public settings in the envelope', async () => {
    const response = await fetch(`${e2e.portal.url}/api/public/settings`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ code: 200, status: 'success' });
  });

  it('keeps the e2e.browser off the internet', async () => {
    // From the app the portal's CSP already refuses it; from a blank page only the route can.
    expect(await fetchFromPage(page, 'https://tile.openstreetmap.org/0/0/0.png')).toBe(false);
    const blank = await context.newPage();
    try {
      expect(await fetchFromPage(blank, 'https://tile.openstreetmap.org/0/0/0.png', { mode: 'no-cors' })).toBe(false);
      await expect(blank.goto('https://photon.komoot.io/api?q=alger')).rejects.toThrow();
    } finally {
      await blank.close();
    }
    expect(blockedRequests(context)).toEqual(
      expect.arrayContaining(['https://tile.openstreetmap.org/0/0/0.png', 'https://photon.komoot.io/api?q=alger']),
    );
  });

  it('lets only loopback, data: and blob: URLs through', () => {
    const local = [
      'http://127.0.0.1:4173/login',
      'http://localhost/',
      'https://[::1]:8443?x',
      'data:text/plain,a',
      'blob:x',
    ];
    const external = [
      'https://tile.openstreetmap.org/0/0/0.png',
      'http://localhost.example.com/',
      'http://127.0.0.10/',
    ];
    expect(local.filter((url) => EXTERNAL_URL.test(url))).toEqual([]);
    expect(external.filter((url) => !EXTERNAL_URL.test(url))).toEqual([]);
  });

  it('pictures every open tablet page, for a failed test, and no closed one', async () => {
    const closed = await newTabletContext(e2e.browser);
    try {
      await (await closed.newPage()).goto(`${e2e.portal.url}/login`);
    } finally {
      await closed.close(); // even when the page failed: a retry must not find it open
    }
    const files = await captureOpenPages('smoke-capture', 0);
    expect(files.map((file) => path.basename(file))).toEqual(['smoke-capture-attempt0-page0.png']);
    const png = await fs.readFile(files[0]!);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    await fs.rm(files[0]!);
  });

  it('serves tiles and suggestions from the stubs', async () => {
    e2e.stubs.resetHits();
    const tile = e2e.stubs.tileUrl.replace('{z}/{x}/{y}', '13/4112/3165');
    for (let i = 0; i < 2; i++) {
      const response = await fetch(tile);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    expect(e2e.stubs.hits('/tiles/13/4112/3165.png')).toBe(2);

    const photon = (await (await fetch(`${e2e.stubs.geocoderUrl}?q=alg&limit=5&lang=fr`)).json()) as {
      features: { properties: { name: string } }[];
    };
    expect(photon.features.map((feature) => feature.properties.name)).toEqual([
      'Alger Centre',
      'Bab El Oued',
      'El Harrach',
    ]);
    const nominatim = (await (await fetch(`${e2e.stubs.nominatimUrl}?format=json&q=oran`)).json()) as unknown[];
    expect(nominatim).toEqual([expect.objectContaining({ display_name: 'Oran, Algérie', lat: '35.6971' })]);
  });

  it('loses a response through the proxy after the server has answered', async () => {
    const earlier = proxy.forwarded().length; // what a first attempt sent, if this is its retry
    await page.goto(`${proxy.url}/`);
    expect(await page.title()).toBe('Portail Partenaire Garage');
    // A request just before leaves a keep-alive connection for the POST to reuse: the case where
    // Chromium would resend a request whose connection died, were the proxy not closing them.
    expect(await fetchFromPage(page, '/api/public/settings')).toBe(true);
    const dropped = proxy.dropNextResponseTo('POST', '/api/public/');
    expect(await fetchFromPage(page, '/api/public/settings', { method: 'POST', body: '{}' })).toBe(false);
    expect(await dropped).toBeGreaterThanOrEqual(200);
    // Exactly one POST reached the server: Chromium did not quietly resend it.
    const forwarded = proxy.forwarded().slice(earlier);
    expect(forwarded.filter((line) => line.startsWith('POST /api/public/'))).toHaveLength(1);
    expect(await fetchFromPage(page, '/api/public/settings')).toBe(true);
  });
});
