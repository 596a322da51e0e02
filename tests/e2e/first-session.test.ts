/**
 * Offline from the first minute: the service worker installed by the first visit controls that very
 * page (no reload), so a mechanic who signs in for the first time and then loses the network can
 * still open every screen, menu and dialog and queue an entry. And a part of the app whose code
 * cannot be fetched (a chunk made to fail here) shows a message with Retry in its place, never a
 * blank page, and never takes what the mechanic typed with it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { screenshot } from './support/browser';
import {
  contextPerTest,
  dashboardHeading,
  fillRepairForm,
  findVehicle,
  historyRows,
  openTab,
  precachedPaths,
  recordRepair,
  registerPartner,
  repairForm,
  serverRepairs,
  signIn,
  waitForPrecache,
} from './support/offline';
import { accountMenuButton, chooseAccountMenuItem, switchLanguage, translation } from './support/pages';
import { DIST_DIR } from './support/paths';
import { DEMO_PARTNER } from './support/server';
import { useE2eSetting } from './support/setting';
import { SCANNER_CODE_CACHE } from '../../src/lib/cache-names';
import { SHELLS_CACHE } from '../../src/lib/sw-shells';
import { scaled } from '../support/host-speed';

const e2e = useE2eSetting();
const tablet = contextPerTest(() => e2e.browser);

const VIN = 'VF1S1CD16RB267735';
const LAST_READING = 120_000;
const LOWER_READING = 119_000;

const CHUNK_FAILED = "Cette partie du portail n'a pas pu être chargée.";
const RETRY = 'Réessayer';
const LOWER_DIALOG = 'Vérifiez le kilométrage';
const QUEUED = 'Saisie enregistrée sur la tablette, elle sera envoyée dès le retour de la connexion.';

/**
 * Every file the build wrote to dist/assets (scripts, styles and any image the code imports), less the
 * compressed copies the server sends in their place and the scanner's WebAssembly (fetched apart, where
 * the browser needs it: src/features/dashboard/scan/prefetch.ts), as paths under the site root.
 */
async function builtAssets(): Promise<string[]> {
  const files = await fs.readdir(path.join(DIST_DIR, 'assets'));
  return files.filter((file) => !/\.(br|gz|wasm)$/.test(file)).map((file) => `/assets/${file}`);
}

/** The paths a cache of the worker holds. */
function cachedPaths(page: Page, cacheName: string): Promise<string[]> {
  return page.evaluate(async (name) => {
    const requests = await (await caches.open(name)).keys();
    return requests.map((request) => new URL(request.url).pathname);
  }, cacheName);
}

/** What the worker keeps of the scanner's code (ZXing's WebAssembly, once fetched). */
const scannerCachePaths = (page: Page) => cachedPaths(page, SCANNER_CODE_CACHE);
/** The prerendered first screens the worker keeps (src/lib/sw-shells.ts). */
const keptShellPaths = (page: Page) => cachedPaths(page, SHELLS_CACHE);

/** The URLs the built service worker precaches (the manifest vite-plugin-pwa injects into sw.js). */
async function precacheManifest(): Promise<string[]> {
  const sw = await fs.readFile(path.join(DIST_DIR, 'sw.js'), 'utf8');
  return [...sw.matchAll(/\{"revision":(?:"[^"]*"|null),"url":"([^"]+)"\}/g)].map((match) => `/${match[1]}`);
}

/** Counts full page loads (a reload included); client-side navigations do not count. */
function countLoads(page: Page): () => number {
  let loads = 0;
  page.on('load', () => (loads += 1));
  return () => loads;
}

/** The reading lower than the last one, filled in without pressing Insert. */
const fillLowerReading = (page: Page) =>
  fillRepairForm(page, { kodeId: 'KODE000001', odometer: LOWER_READING, type: 'Vidange' });

/** What the form holds, as the mechanic sees it. */
async function formValues(page: Page) {
  const fields = repairForm(page);
  return {
    kodeId: await fields.kodeId.inputValue(),
    type: await fields.type.locator('option:checked').innerText(),
    odometer: await fields.odometer.inputValue(),
    consented: await fields.consent.isChecked(),
  };
}

const lowerReadingDialog = (page: Page) => page.getByRole('alertdialog', { name: LOWER_DIALOG });

/** Confirms the lower reading and waits until the form is cleared (the entry is in the outbox). */
async function confirmLowerReading(page: Page) {
  await lowerReadingDialog(page).getByRole('button', { name: 'Confirmer le kilométrage' }).click();
  await expect.poll(() => repairForm(page).kodeId.inputValue(), { timeout: scaled(15_000) }).toBe('');
}

/** The odometers the server holds for the partner, sorted. */
async function storedOdometers(account: Parameters<typeof serverRepairs>[1]): Promise<number[]> {
  return (await serverRepairs(e2e.portal.url, account)).map((repair) => repair.odometer).sort((a, b) => a - b);
}

/** A route that answers every request for a chunk as if the network were gone. */
function failChunk(context: BrowserContext, pattern: string) {
  const abort = (route: Route) => route.abort('internetdisconnected');
  return {
    start: () => context.route(pattern, abort),
    release: () => context.unroute(pattern, abort),
  };
}

/** The message a part that failed to load shows in its place, in the given language. */
function chunkFailure(page: Page, locale: 'fr' | 'ar' = 'fr') {
  const text = translation(locale, CHUNK_FAILED);
  if (!text) throw new Error(`no ${locale} translation of "${CHUNK_FAILED}"`);
  return page.getByRole('alert').filter({ hasText: text });
}

describe('precache', () => {
  it('lists every built asset in the service worker manifest', async () => {
    const manifest = new Set(await precacheManifest());
    const assets = await builtAssets();
    expect(assets.length).toBeGreaterThan(20);
    expect(assets.filter((asset) => !manifest.has(asset))).toEqual([]);
  });

  it('keeps the pages and the shared chunks when a screen changes: only the entry names the screens', async () => {
    const read = (file: string) => fs.readFile(path.join(DIST_DIR, file), 'utf8');
    const screensNamed = (code: string) => [...new Set(code.match(/\b\w+Page(?=-[\w-]+\.js)/g))].sort();
    // The pages name the entry by a name that does not change; the precache keeps it by its revision.
    expect(await read('index.html')).toContain('<script type="module" crossorigin src="/app.js">');
    expect(await precacheManifest()).toContain('/app.js');
    expect(screensNamed(await read('app.js'))).toEqual([
      'CertificatePage',
      'DashboardPage',
      'ForgotPasswordPage',
      'LoginPage',
      'PrivacyConditionsPage',
      'ProfilePage',
      'RegisterPage',
      'ResetPasswordPage',
    ]);
    // The shell every lazy chunk imports names none: a change to a screen would rename it, and them.
    const shell = (await builtAssets()).filter((asset) => /\/shell-[\w-]+\.js$/.test(asset));
    expect(shell).toHaveLength(1);
    expect(screensNamed(await read(shell[0]!))).toEqual([]);
  });
  it("has each prerendered page fetch its screen's code ahead, not once the shell has run", async () => {
    const preloaded = async (file: string) =>
      [
        ...(await fs.readFile(path.join(DIST_DIR, file), 'utf8')).matchAll(
          /<link rel="modulepreload" crossorigin href="\/assets\/([\w.-]+)-[\w-]{8}\.js">/g,
        ),
      ].map((match) => match[1]);
    expect(await preloaded('prerendered/dashboard/ar-dark.html')).toEqual(
      expect.arrayContaining(['shell', 'DashboardPage', 'AuthenticatedLayout']),
    );
    expect(await preloaded('prerendered/login/fr-light.html')).toEqual(expect.arrayContaining(['shell', 'LoginPage']));
    expect(await preloaded('prerendered/login/fr-light.html')).not.toContain('AuthenticatedLayout');
  });
});

describe('first session', () => {
  it('is controlled by the worker without a reload and keeps working when the network drops', async () => {
    const account = await registerPartner(e2e.portal.url, 'first');
    const context = await tablet.open();
    const page = await context.newPage();
    const loads = countLoads(page);
    await signIn(page, e2e.portal.url, account);

    // The worker the first visit installed takes control of this very page.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: scaled(30_000) });
    await waitForPrecache(page);
    expect(loads()).toBe(1);
    const precached = new Set(await precachedPaths(page));
    expect((await builtAssets()).filter((asset) => !precached.has(asset))).toEqual([]);
    // Of the 24 prerendered first screens, the worker keeps the tablet's own variant only: four pages.
    await expect
      .poll(async () => (await keptShellPaths(page)).sort(), { timeout: scaled(15_000) })
      .toEqual(
        ['dashboard', 'forgot-password', 'login', 'register'].map((name) => `/prerendered/${name}/fr-light.html`),
      );
    expect([...precached].some((asset) => asset.startsWith('/prerendered/'))).toBe(false);
    // Not in the precache: the scanner's WebAssembly, fetched in the background on this browser (no
    // BarcodeDetector of its own on desktop Linux) and kept by the worker, so it scans offline too.
    expect([...precached].some((asset) => asset.endsWith('.wasm'))).toBe(false);
    await expect
      .poll(async () => (await scannerCachePaths(page)).filter((asset) => asset.endsWith('.wasm')), {
        timeout: scaled(15_000),
      })
      .toHaveLength(1);

    // One reading online, so the vehicle has a last reading to be lower than.
    await findVehicle(page, 'KODE000001', VIN);
    await recordRepair(page, { kodeId: 'KODE000001', odometer: LAST_READING, type: 'Vidange' });
    await expect.poll(() => storedOdometers(account)).toEqual([LAST_READING]);
    await findVehicle(page, 'KODE000001', VIN);

    await context.setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);

    await chooseAccountMenuItem(page, 'profile');
    await page.getByRole('heading', { level: 1, name: 'Mon profil' }).waitFor();
    await page.getByRole('link', { name: 'KODE Garage' }).click();
    await dashboardHeading(page).waitFor();

    await openTab(page, 'Historique');
    await expect.poll(async () => (await historyRows(page)).map((row) => row.status)).toEqual(['synced']);
    await openTab(page, 'Conseils');
    await page.getByRole('heading', { level: 2, name: 'Comment enregistrer un kilométrage' }).waitFor();
    await openTab(page, 'Nouvelle saisie');

    await fillLowerReading(page);
    await repairForm(page).insert.press('Enter');
    await lowerReadingDialog(page).waitFor();
    await confirmLowerReading(page);
    await page.getByText(QUEUED).first().waitFor();
    await openTab(page, 'Historique');
    await expect.poll(async () => (await historyRows(page)).map((row) => row.status)).toEqual(['pending', 'synced']);
    expect(loads()).toBe(1);
    await screenshot(page, 'first-session-offline-pending');

    await context.setOffline(false);
    await expect
      .poll(async () => (await historyRows(page)).map((row) => row.status), { timeout: scaled(30_000) })
      .toEqual(['synced', 'synced']);
    expect(await storedOdometers(account)).toEqual([LOWER_READING, LAST_READING]);
    expect(loads()).toBe(1);
  });
});

describe('a chunk that cannot be fetched', () => {
  // No worker, so every chunk request reaches the network, where the test makes it fail.
  const openWithoutWorker = () => tablet.open({ serviceWorkers: 'block' });

  it('leaves the form filled in when the confirmation dialog cannot load, and opens it on Retry', async () => {
    const account = await registerPartner(e2e.portal.url, 'chunk');
    const context = await openWithoutWorker();
    const page = await context.newPage();
    await signIn(page, e2e.portal.url, account);
    await findVehicle(page, 'KODE000001', VIN);
    await recordRepair(page, { kodeId: 'KODE000001', odometer: LAST_READING, type: 'Vidange' });
    await expect.poll(() => storedOdometers(account)).toEqual([LAST_READING]);

    const dialogChunk = failChunk(context, '**/assets/confirm-dialog-view-*.js');
    await dialogChunk.start();
    await fillLowerReading(page);
    const typed = await formValues(page);
    expect(typed).toEqual({ kodeId: 'KODE000001', type: 'Vidange', odometer: String(LOWER_READING), consented: true });
    await repairForm(page).insert.press('Enter');

    const failure = chunkFailure(page);
    await failure.waitFor();
    expect(await formValues(page)).toEqual(typed);
    expect(await lowerReadingDialog(page).count()).toBe(0);
    await screenshot(page, 'chunk-failure-dialog-fr');

    await dialogChunk.release();
    await failure.getByRole('button', { name: RETRY }).click();
    await lowerReadingDialog(page).waitFor();
    expect(await failure.count()).toBe(0);
    await confirmLowerReading(page);
    await expect.poll(() => storedOdometers(account)).toEqual([LOWER_READING, LAST_READING]);
  });

  it('keeps an entry in the form when the code that looks up and records it cannot load, says so, and records it on Retry', async () => {
    const account = await registerPartner(e2e.portal.url, 'actions');
    const context = await openWithoutWorker();
    // The lookup's and the outbox's code, lost from the sign-in on (as when the network drops just after).
    const actionsChunk = failChunk(context, '**/assets/entry-actions-*.js');
    await actionsChunk.start();
    const page = await context.newPage();
    await signIn(page, e2e.portal.url, account);
    const fields = repairForm(page);

    const failures = page.locator('[data-scope="toast"][data-part="root"]').filter({ hasText: CHUNK_FAILED });

    // Find: the message says what failed, and the identifier stays. The mechanic closes it.
    await fields.kodeId.fill('KODE000001');
    await fields.find.click();
    await failures.first().waitFor();
    expect(await fields.kodeId.inputValue()).toBe('KODE000001');
    await failures.getByRole('button', { name: 'Fermer' }).click();
    await expect.poll(() => failures.count()).toBe(0);

    // Insert: the same message, and everything typed stays in the form; nothing reached the server.
    await fillRepairForm(page, { kodeId: 'KODE000001', odometer: LAST_READING, type: 'Vidange' });
    const typed = await formValues(page);
    await fields.insert.press('Enter');
    await failures.first().waitFor();
    expect(await failures.count()).toBe(1);
    expect(await formValues(page)).toEqual(typed);
    expect(await storedOdometers(account)).toEqual([]);
    await screenshot(page, 'chunk-failure-insert-fr');

    // Once the code can be fetched, Retry on that message records the entry as typed.
    await actionsChunk.release();
    await failures.getByRole('button', { name: RETRY }).click();
    await expect.poll(() => fields.kodeId.inputValue(), { timeout: scaled(15_000) }).toBe('');
    await expect.poll(() => storedOdometers(account)).toEqual([LAST_READING]);
  });

  it('lists the repair types once the tablet’s database code, lost on its first fetch, arrives on a later try', async () => {
    const account = await registerPartner(e2e.portal.url, 'store');
    const context = await openWithoutWorker();
    const storeChunk = failChunk(context, '**/assets/local-store-*.js');
    await storeChunk.start();
    const page = await context.newPage();
    await signIn(page, e2e.portal.url, account);
    const vidange = repairForm(page).type.locator('option', { hasText: 'Vidange' });
    // The form is there and can be typed in; what it reads from IndexedDB waits for that code.
    await repairForm(page).kodeId.fill('KODE000001');
    await page.waitForTimeout(1_000);
    expect(await vidange.count()).toBe(0);

    await storeChunk.release();
    await expect.poll(() => vidange.count(), { timeout: scaled(15_000) }).toBeGreaterThan(0);
    await recordRepair(page, { kodeId: 'KODE000001', odometer: LAST_READING, type: 'Vidange' });
    await expect.poll(() => storedOdometers(account)).toEqual([LAST_READING]);
  });

  it('keeps the account menu trigger working and shows a screen that failed on Retry, in French and Arabic', async () => {
    const context = await openWithoutWorker();
    const page = await context.newPage();
    await signIn(page, e2e.portal.url, DEMO_PARTNER);

    // The menu: pressing the trigger says what failed; the trigger stays, and the next press loads it.
    const menuChunk = failChunk(context, '**/assets/AccountMenu-*.js');
    await menuChunk.start();
    await accountMenuButton(page).click();
    await page.getByText(CHUNK_FAILED).first().waitFor();
    await dashboardHeading(page).waitFor();
    expect(await page.locator('[role="menu"]:visible').count()).toBe(0);
    await menuChunk.release();
    // The screen: the profile's code fails; the header stays, and Retry shows the profile.
    const profileChunk = failChunk(context, '**/assets/ProfilePage-*.js');
    await profileChunk.start();
    await chooseAccountMenuItem(page, 'profile');
    const failure = chunkFailure(page);
    await failure.waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile');
    await accountMenuButton(page).waitFor();
    await screenshot(page, 'chunk-failure-screen-fr');
    await profileChunk.release();
    await failure.getByRole('button', { name: RETRY }).click();
    await page.getByRole('heading', { level: 1, name: 'Mon profil' }).waitFor();

    // The same in Arabic, on a page opened afresh at /profile.
    await switchLanguage(page, 'ar');
    await profileChunk.start();
    await page.goto(`${e2e.portal.url}/profile`);
    const arabicFailure = chunkFailure(page, 'ar');
    await arabicFailure.waitFor();
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    await screenshot(page, 'chunk-failure-screen-ar');
    await profileChunk.release();
    await arabicFailure.getByRole('button', { name: translation('ar', RETRY)! }).click();
    await page.getByRole('heading', { level: 1, name: translation('ar', 'Mon profil')! }).waitFor();
  });
});
