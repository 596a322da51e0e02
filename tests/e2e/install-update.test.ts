/**
 * Installing and updating the PWA (docs/ARCHITECTURE.md#the-offline-model-in-practice): the built manifest and icons make it
 * installable in Chromium, and a newly deployed version is offered, held back while the dashboard
 * form has unsaved input, applied on request, and loses nothing queued in the outbox.
 *
 * The portal serves a release link (DIST_DIR) that points at one of two copies of dist/: version 1 as
 * built, and version 2, made once before any test's clock starts. Deploying is swapping the link, as a
 * real release switch does, and every test starts from version 1: a retried test starts where its
 * first attempt started, whatever that attempt deployed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, EXTERNAL_URL, launchBrowser, screenshot } from './support/browser';
import {
  historyRows,
  indicator,
  openTab,
  recordRepair,
  registerPartner,
  repairForm,
  serverRepairs,
  signIn,
  waitForPrecache,
  waitForServiceWorker,
  waitingIn,
  contextPerTest,
} from './support/offline';
import { precompressFile } from '../../scripts/precompress';
import { DIST_DIR } from './support/paths';
import { ensureBuild, startPortal, type Portal } from './support/server';
import { startMapStubs, type MapStubs } from './support/stubs';
import { scaled } from '../support/host-speed';

let stubs: MapStubs;
let portal: Portal;
let browser: Browser;
let workDir: string;
/** The folder the portal serves: a link to the release deployed. */
let liveDist: string;
const releases = { v1: '', v2: '' };
/** index.html's precache revision in version 2. */
let newRevision: string;

beforeAll(async () => {
  await ensureBuild();
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-update-'));
  releases.v1 = path.join(workDir, 'v1');
  releases.v2 = path.join(workDir, 'v2');
  liveDist = path.join(workDir, 'live');
  await fs.cp(DIST_DIR, releases.v1, { recursive: true });
  await fs.cp(DIST_DIR, releases.v2, { recursive: true });
  newRevision = await makeNewVersion(releases.v2);
  await deploy('v1');
  stubs = await startMapStubs();
  portal = await startPortal({ ...stubs, env: { DIST_DIR: liveDist } });
  browser = await launchBrowser();
});

// Every test, and every retry of one, starts on version 1.
beforeEach(() => deploy('v1'));

afterAll(async () => {
  await browser?.close();
  await portal?.stop();
  await stubs?.close();
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

const tablet = contextPerTest(() => browser);

const freshPage = async (): Promise<Page> => (await tablet.open()).newPage();

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Fetches a PNG from the portal and reads its size from the IHDR chunk. */
async function fetchPng(url: string): Promise<{ width: number; height: number; type: string | null }> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE), `${url} is a PNG`).toBe(true);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), type: response.headers.get('content-type') };
}

/** Chromium's own checks through the DevTools protocol: the manifest as parsed, and what would stop an install. */
async function installabilityOf(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifest.url).toBe(`${portal.url}/manifest.webmanifest`);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string; errorArguments: unknown[] }[];
    };
    return { manifestErrors: manifest.errors, installabilityErrors };
  } finally {
    await cdp.detach();
  }
}

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

describe('installability', () => {
  it('serves a complete manifest, icons and apple-touch-icon, and Chromium finds nothing missing', async () => {
    const response = await fetch(`${portal.url}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    const manifest = (await response.json()) as Record<string, unknown> & { icons: ManifestIcon[] };
    expect(manifest).toMatchObject({
      name: 'Portail Partenaire Garage',
      short_name: 'Garage',
      display: 'standalone',
      lang: 'fr',
      start_url: '/',
      scope: '/',
      theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
      background_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
    });
    const icon = (size: string, purpose: string) =>
      manifest.icons.find((entry) => entry.sizes === size && (entry.purpose ?? 'any').split(' ').includes(purpose));
    const any192 = icon('192x192', 'any');
    const any512 = icon('512x512', 'any');
    const maskable = icon('512x512', 'maskable');
    expect(any192 && any512 && maskable).toBeTruthy();
    // The maskable icon is an icon of its own (its safe zone differs), not "any maskable".
    expect(maskable!.src).not.toBe(any512!.src);
    expect(maskable!.purpose).toBe('maskable');
    for (const entry of [any192!, any512!, maskable!]) {
      const png = await fetchPng(new URL(entry.src, portal.url).href);
      expect(`${png.width}x${png.height}`).toBe(entry.sizes);
      expect(png.type).toBe('image/png');
      expect(entry.type).toBe('image/png');
    }

    const page = await freshPage();
    await page.goto(`${portal.url}/login`);
    await page.getByRole('heading', { level: 1, name: 'Connexion à l’espace partenaire' }).waitFor();
    await waitForServiceWorker(page);
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe(manifest.theme_color);
    const touchIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    expect(touchIcon).toBeTruthy();
    const apple = await fetchPng(new URL(touchIcon!, portal.url).href);
    expect(apple.type).toBe('image/png');
    expect(apple.width).toBe(apple.height);
    expect(apple.width).toBeGreaterThanOrEqual(180);

    // Off the record (every Playwright context but a persistent one) Chromium never installs: that
    // one reason is the browser's, not the app's; the next test asks outside incognito.
    expect(await installabilityOf(page)).toEqual({
      manifestErrors: [],
      installabilityErrors: [{ errorId: 'in-incognito', errorArguments: [] }],
    });
  });

  it('is installable for Chromium outside incognito', async () => {
    // Playwright's contexts are off the record, where Chromium never installs ('in-incognito'):
    // a persistent profile gives Chromium's real verdict.
    const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-profile-'));
    const persistent = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
      serviceWorkers: 'allow',
      locale: 'fr-DZ',
      viewport: { width: 1024, height: 768 },
    });
    try {
      await persistent.route(EXTERNAL_URL, (route) => route.abort('blockedbyclient'));
      tablet.watch(persistent);
      const page = persistent.pages()[0] ?? (await persistent.newPage());
      await page.goto(`${portal.url}/login`);
      await page.getByRole('heading', { level: 1, name: 'Connexion à l’espace partenaire' }).waitFor();
      await waitForServiceWorker(page);
      expect(await installabilityOf(page)).toEqual({ manifestErrors: [], installabilityErrors: [] });
    } finally {
      await persistent.close();
      await fs.rm(profile, { recursive: true, force: true });
    }
  });
});

const NEW_VERSION = 'v2-e2e';
const UPDATE_OFFER = 'Une nouvelle version du portail est disponible.';
const UPDATE_HELD = 'Terminez ou videz la saisie en cours pour mettre à jour.';

/**
 * Points the served link at a release in one step (a rename over the link), so that no request
 * finds a mix of two versions or no folder at all.
 */
async function deploy(release: keyof typeof releases): Promise<void> {
  const next = `${liveDist}.next`;
  await fs.rm(next, { force: true });
  await fs.symlink(releases[release], next, 'dir');
  await fs.rename(next, liveDist);
}

/**
 * Makes a copy of the build into a new version: each precached page (index.html and the prerendered
 * first screens, with their compressed copies) gains a marker, and the service worker's precache
 * manifest gets their new revisions, as a real build would give them. Once deployed, the browser
 * sees a changed sw.js and installs it next to the running one. Returns index.html's new revision.
 */
async function makeNewVersion(dir: string): Promise<string> {
  const swFile = path.join(dir, 'sw.js');
  let sw = await fs.readFile(swFile, 'utf8');
  const pages = [...sw.matchAll(/\{"revision":"([0-9a-f]{32})","url":"([\w/-]+\.html)"\}/g)];
  expect(pages.map(([, , url]) => url)).toContain('index.html');
  const revisions = new Map<string, string>();
  for (const [entry, , url] of pages) {
    const file = path.join(dir, url!);
    const page = await fs.readFile(file, 'utf8');
    const next = page.replace(
      '<meta charset="UTF-8" />',
      `<meta charset="UTF-8" />\n    <meta name="portal-version" content="${NEW_VERSION}" />`,
    );
    expect(next, url).not.toBe(page);
    const revision = crypto.createHash('md5').update(next).digest('hex');
    revisions.set(url!, revision);
    sw = sw.replace(entry, `{"revision":"${revision}","url":"${url}"}`);
    await fs.writeFile(file, next);
    await precompressFile(file); // its Brotli and gzip copies, which the server prefers
  }
  await fs.writeFile(swFile, sw);
  await precompressFile(swFile); // the worker is sent compressed too
  return revisions.get('index.html')!;
}

const pageVersion = (page: Page) =>
  page.evaluate(() => document.querySelector('meta[name="portal-version"]')?.getAttribute('content') ?? 'v1');

/** What the app does when the tablet comes back to the tab: it looks for a new version (and sends). */
const returnToTab = (page: Page) => page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));

describe('update', () => {
  it('offers a new version, holds it while the form has unsaved input, applies it on request and keeps the outbox', async () => {
    const account = await registerPartner(portal.url, 'update');
    const page = await freshPage();
    await signIn(page, portal.url, account);
    await waitForServiceWorker(page);
    await waitForPrecache(page);
    expect(await pageVersion(page)).toBe('v1');

    // One repair waits in the outbox: the server cannot be reached for it.
    const blockRepairs = (route: import('playwright-core').Route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback();
    await tablet.context.route(`${portal.url}/api/partner/repairs`, blockRepairs);
    await recordRepair(page, { kodeId: 'KODE000002', odometer: 91_000, type: 'Vidange' });
    await expect.poll(async () => waitingIn((await indicator(page)).label)).toBe(1);

    // The mechanic starts another entry and leaves it unfinished.
    const fields = repairForm(page);
    await fields.kodeId.fill('KODE000001');
    await fields.odometer.fill('123456');
    await page.evaluate(() => {
      (window as Window & { beforeUpdate?: boolean }).beforeUpdate = true;
    });

    await deploy('v2');
    await returnToTab(page);
    const prompt = page.getByRole('status').filter({ hasText: UPDATE_OFFER });
    await prompt.waitFor({ timeout: scaled(20_000) });
    const update = prompt.getByRole('button', { name: 'Mettre à jour' });
    await expect.poll(() => update.isDisabled()).toBe(true);
    await prompt.getByText(UPDATE_HELD).waitFor();
    await screenshot(page, 'update-held');
    // Nothing reloaded under the input.
    expect(await fields.kodeId.inputValue()).toBe('KODE000001');
    expect(await page.evaluate(() => (window as Window & { beforeUpdate?: boolean }).beforeUpdate)).toBe(true);
    expect(await pageVersion(page)).toBe('v1');

    await fields.kodeId.fill('');
    await fields.odometer.fill('');
    await expect.poll(() => update.isEnabled()).toBe(true);
    expect(await prompt.getByText(UPDATE_HELD).count()).toBe(0);
    await update.click();

    // The new worker takes over and the page reloads into the new version.
    await expect.poll(() => pageVersion(page).catch(() => 'reloading'), { timeout: scaled(20_000) }).toBe(NEW_VERSION);
    expect(await page.evaluate(() => (window as Window & { beforeUpdate?: boolean }).beforeUpdate)).toBeUndefined();
    await page.getByRole('heading', { level: 1, name: 'Tableau de bord – Partenaire Garage' }).waitFor();
    expect(await page.getByText(UPDATE_OFFER).count()).toBe(0);
    const precached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        if (name.startsWith('workbox-precache'))
          urls.push(...(await (await caches.open(name)).keys()).map((r) => r.url));
      }
      return urls.filter((url) => new URL(url).pathname === '/index.html');
    });
    expect(precached).toEqual([`${portal.url}/index.html?__WB_REVISION__=${newRevision}`]);

    // The queued repair is still there, and goes once the server can be reached.
    await expect.poll(async () => waitingIn((await indicator(page)).label)).toBe(1);
    await openTab(page, 'Historique');
    await expect
      .poll(async () => (await historyRows(page)).map((row) => `${row.kodeId} ${row.status}`))
      .toEqual(['KODE000002 pending']);
    await tablet.context.unroute(`${portal.url}/api/partner/repairs`, blockRepairs);
    await returnToTab(page);
    await expect
      .poll(async () => (await historyRows(page)).map((row) => `${row.kodeId} ${row.status}`), {
        timeout: scaled(30_000),
      })
      .toEqual(['KODE000002 synced']);
    const stored = await serverRepairs(portal.url, account);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ vehicle: { kode_id: 'KODE000002' }, odometer: 91_000 });
    await screenshot(page, 'update-applied');
  });
});
