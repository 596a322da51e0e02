/**
 * Offline from the first minute: the service worker installed by the first visit controls that very
 * page (no reload), so a mechanic who signs in for the first time and then loses the network can
 * still open every screen, menu and dialog and queue an entry.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
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
import { chooseAccountMenuItem } from './support/pages';
import { DIST_DIR } from './support/paths';
import { useE2eSetting } from './support/setting';

const e2e = useE2eSetting();
const tablet = contextPerTest(() => e2e.browser);

const VIN = 'VF1S1CD16RB267735';
const LAST_READING = 120_000;
const LOWER_READING = 119_000;

const LOWER_DIALOG = 'Vérifiez le kilométrage';
const QUEUED = 'Saisie enregistrée sur la tablette, elle sera envoyée dès le retour de la connexion.';

/** Every script and style the build wrote (dist/assets), as paths under the site root. */
async function builtAssets(): Promise<string[]> {
  const files = await fs.readdir(path.join(DIST_DIR, 'assets'));
  return files.filter((file) => /\.(js|css)$/.test(file)).map((file) => `/assets/${file}`);
}

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

const lowerReadingDialog = (page: Page) => page.getByRole('alertdialog', { name: LOWER_DIALOG });

/** Confirms the lower reading and waits until the form is cleared (the entry is in the outbox). */
async function confirmLowerReading(page: Page) {
  await lowerReadingDialog(page).getByRole('button', { name: 'Confirmer le kilométrage' }).click();
  await expect.poll(() => repairForm(page).kodeId.inputValue(), { timeout: 15_000 }).toBe('');
}

/** The odometers the server holds for the partner, sorted. */
async function storedOdometers(account: Parameters<typeof serverRepairs>[1]): Promise<number[]> {
  return (await serverRepairs(e2e.portal.url, account)).map((repair) => repair.odometer).sort((a, b) => a - b);
}

describe('precache', () => {
  it('lists every built script and style in the service worker manifest', async () => {
    const manifest = new Set(await precacheManifest());
    const assets = await builtAssets();
    expect(assets.length).toBeGreaterThan(20);
    expect(assets.filter((asset) => !manifest.has(asset))).toEqual([]);
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
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    await waitForPrecache(page);
    expect(loads()).toBe(1);
    const precached = new Set(await precachedPaths(page));
    expect((await builtAssets()).filter((asset) => !precached.has(asset))).toEqual([]);

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
      .poll(async () => (await historyRows(page)).map((row) => row.status), { timeout: 30_000 })
      .toEqual(['synced', 'synced']);
    expect(await storedOdometers(account)).toEqual([LOWER_READING, LAST_READING]);
    expect(loads()).toBe(1);
  });
});
