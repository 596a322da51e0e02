/**
 * The app shell offline (docs/ARCHITECTURE.md#the-offline-model-in-practice): once the service worker controls the page, every
 * route opens and reloads with the network cut, a signed-in mechanic stays signed in (only a 401
 * signs out), and map tiles seen once come back from the worker's cache.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import {
  dashboardHeading,
  indicator,
  reloadOffline,
  signIn,
  waitForPrecache,
  waitForServiceWorker,
  contextPerTest,
} from './support/offline';
import { DEMO_PARTNER } from './support/server';
import { useE2eSetting } from './support/setting';
import { scaled } from '../support/host-speed';

const e2e = useE2eSetting();

const tablet = contextPerTest(() => e2e.browser);
const freshPage = async (): Promise<Page> => (await tablet.open()).newPage();

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

/** A piece of the seeded French conditions text (server/db/conditions.ts). */
const CONDITIONS_TEXT = 'Responsable du traitement et cadre légal';

/** Opens a route while offline, checks its screen, then reloads it and checks again. */
async function openOffline(page: Page, route: string, expectPath: string, screen: () => Promise<void>) {
  await page.goto(`${e2e.portal.url}${route}`);
  expect(await page.title()).toBe('Portail Partenaire Garage');
  await expect.poll(() => new URL(page.url()).pathname).toBe(expectPath);
  await screen();
  await reloadOffline(page);
  await expect.poll(() => new URL(page.url()).pathname).toBe(expectPath);
  await screen();
}

describe('offline app shell', () => {
  it('opens and reloads every route offline once the service worker is in control', async () => {
    const page = await freshPage();
    await page.goto(`${e2e.portal.url}/login`);
    await heading(page, 'Connexion à l’espace partenaire').waitFor();
    await waitForServiceWorker(page);
    await waitForPrecache(page);
    // The conditions are read once online, so the worker has them for later.
    await page.goto(`${e2e.portal.url}/privacy-conditions`);
    await page.getByText(CONDITIONS_TEXT).waitFor();

    await tablet.context.setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);

    const visible = (name: string) => () => heading(page, name).waitFor({ timeout: scaled(10_000) });
    await openOffline(page, '/login', '/login', visible('Connexion à l’espace partenaire'));
    await openOffline(page, '/register', '/register', visible('Créer un compte partenaire'));
    await openOffline(page, '/forgot-password', '/forgot-password', visible('Mot de passe oublié'));
    // The token is read, then taken out of the address bar.
    await page.goto(`${e2e.portal.url}/reset-password?token=v4.x`);
    await heading(page, 'Nouveau mot de passe').waitFor();
    await expect.poll(() => page.url()).toBe(`${e2e.portal.url}/reset-password`);
    // Reloaded, the page has no token any more: like any missing token, it sends the mechanic to sign
    // in (docs/PRODUCT.md#reset-password), offline too. (The address was /reset-password only until then.)
    await reloadOffline(page);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    await heading(page, 'Connexion à l’espace partenaire').waitFor();
    await openOffline(page, '/privacy-conditions', '/privacy-conditions', async () => {
      await heading(page, 'Conditions de confidentialité').waitFor();
      await page.getByText(CONDITIONS_TEXT).waitFor();
    });
    // Nobody is signed in: the authenticated routes open the sign-in screen, offline too.
    await openOffline(page, '/', '/login', visible('Connexion à l’espace partenaire'));
    await openOffline(page, '/profile', '/login', visible('Connexion à l’espace partenaire'));
    await screenshot(page, 'offline-login');
  });

  it('keeps a signed-in mechanic signed in when reloaded offline, and only a 401 signs out', async () => {
    const page = await freshPage();
    await signIn(page, e2e.portal.url, DEMO_PARTNER);
    await waitForServiceWorker(page);
    await waitForPrecache(page);
    await dashboardHeading(page).waitFor();
    expect((await indicator(page)).online).toBe(true);

    await tablet.context.setOffline(true);
    // The refresh before the route fails for lack of network: the cached user stays signed in.
    await reloadOffline(page);
    await dashboardHeading(page).waitFor();
    await expect.poll(async () => (await indicator(page)).online).toBe(false);
    expect((await indicator(page)).label).toMatch(/^Hors ligne/);
    await screenshot(page, 'offline-dashboard');

    await openOffline(page, '/profile', '/profile', async () => {
      await heading(page, 'Mon profil').waitFor();
      await page.getByText('Garage Demo El Harrach').first().waitFor();
    });
    await openOffline(page, '/', '/', () => dashboardHeading(page).waitFor());
    // Not read online in this context, the conditions cannot be shown: the page says why and offers a retry.
    tablet.allow(/Failed to load resource: net::ERR_FAILED/);
    await openOffline(page, '/privacy-conditions', '/privacy-conditions', async () => {
      await heading(page, 'Conditions de confidentialité').waitFor();
      await page.getByText('Impossible de charger les conditions').waitFor();
      await page.getByText('Serveur injoignable : vérifiez la connexion et réessayez').waitFor();
    });
    // Public screens lead a signed-in mechanic to the dashboard, offline as online.
    for (const route of ['/login', '/register', '/forgot-password']) {
      await openOffline(page, route, '/', () => dashboardHeading(page).waitFor());
    }

    // Back online the session is refreshed and the mechanic is still in.
    await tablet.context.setOffline(false);
    await page.reload();
    await dashboardHeading(page).waitFor();
    await expect.poll(async () => (await indicator(page)).online).toBe(true);

    // A refresh the server refuses (401: the session cookie is gone) is what signs out.
    await tablet.context.clearCookies();
    await page.reload();
    await heading(page, 'Connexion à l’espace partenaire').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});

interface TileState {
  src: string;
  loaded: boolean;
}

/** The tiles in the open picker's map, and whether each image has arrived. */
function tilesOf(page: Page): Promise<TileState[]> {
  return page.locator('[role="dialog"] img.leaflet-tile').evaluateAll((images) =>
    (images as HTMLImageElement[]).map((image) => ({
      src: image.src,
      loaded: image.complete && image.naturalWidth === 256,
    })),
  );
}

/** Entries in the service worker's tile cache (src/sw.ts TILE_CACHE). */
function cachedTiles(page: Page): Promise<number> {
  return page.evaluate(async () => {
    if (!(await caches.has('map-tiles-v1'))) return 0;
    return (await (await caches.open('map-tiles-v1')).keys()).length;
  });
}

async function openPicker(page: Page): Promise<TileState[]> {
  await page.getByRole('button', { name: 'Choisir la localisation' }).click();
  await page.getByRole('dialog').waitFor();
  let tiles: TileState[] = [];
  await expect
    .poll(
      async () => {
        tiles = await tilesOf(page);
        return tiles.length > 0 && tiles.every((tile) => tile.loaded);
      },
      { timeout: scaled(15_000) },
    )
    .toBe(true);
  return tiles;
}

async function closePicker(page: Page) {
  await page.getByRole('dialog').getByRole('button', { name: 'Annuler' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

describe('map tiles offline', () => {
  it('shows the tiles seen online from the service worker cache when offline', async () => {
    e2e.stubs.resetHits(); // a retry's new tablet fetches the same tiles again
    const page = await freshPage();
    await page.goto(`${e2e.portal.url}/register`);
    await heading(page, 'Créer un compte partenaire').waitFor();
    await waitForServiceWorker(page);
    await waitForPrecache(page);

    const online = await openPicker(page);
    const paths = online.map((tile) => new URL(tile.src).pathname);
    const tileHits = () => paths.reduce((sum, path) => sum + e2e.stubs.hits(path), 0);
    expect(paths.every((path) => path.startsWith('/tiles/'))).toBe(true);
    // Each tile went to the stub once; the worker cached it (cache first, CORS answers only).
    await expect.poll(tileHits).toBe(paths.length);
    await expect.poll(() => cachedTiles(page)).toBeGreaterThanOrEqual(paths.length);
    await closePicker(page);

    await tablet.context.setOffline(true);
    await reloadOffline(page);
    await heading(page, 'Créer un compte partenaire').waitFor();
    const offline = await openPicker(page);
    expect(offline.map((tile) => new URL(tile.src).pathname).sort()).toEqual([...paths].sort());
    expect(offline.every((tile) => tile.loaded)).toBe(true);
    expect(tileHits()).toBe(paths.length);
    await screenshot(page, 'offline-map-tiles');
    await closePicker(page);
  });
});
