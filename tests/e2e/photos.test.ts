/**
 * The odometer's photo end to end (docs/PRODUCT.md#odometer-photo), in Chromium with a fake camera
 * filming an odometer the test draws itself: taken offline with the entry, made small on the tablet,
 * kept there while the tablet is closed, then sent once the network is back, after its entry, exactly
 * once, and shown in History from the tablet and then from the server.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverRepairsFromNow } from './support/attempt';
import { launchBrowser, newTabletContext, screenshot } from './support/browser';
import { fakeCameraArgs, writeOdometerClip } from './support/camera';
import { expectShownWhole } from './support/geometry';
import {
  contextPerTest,
  fillRepairForm,
  findVehicle,
  goOffline,
  openTab,
  registerPartner,
  repairForm,
  signIn,
  SYNC_TIMEOUT,
  waitForServiceWorker,
  waitUntilReadyOffline,
  watchConsole,
  type Account,
} from './support/offline';
import { fireSync } from './support/background-sync';
import { exportFile, importFile } from './support/handover';
import { useE2eSetting } from './support/setting';

const e2e = useE2eSetting();
const KODE = 'KODE000001';
const VIN = 'VF1S1CD16RB267735';

let camera: Browser;
// Registered once (5 registrations per hour and portal): a retry finds its first attempt's repairs on
// the server, so each test counts only those added since it started (serverRepairsFromNow).
let account: Account;
let handoverAccount: Account;
let backgroundAccount: Account;
let leftBehindAccount: Account;
const tablet = contextPerTest(() => camera);

beforeAll(async () => {
  const clip = await writeOdometerClip('odometer', '128450');
  camera = await launchBrowser({ extraArgs: fakeCameraArgs(clip, { granted: true }) });
  account = await registerPartner(e2e.portal.url, 'photo');
  handoverAccount = await registerPartner(e2e.portal.url, 'photo-handover');
  backgroundAccount = await registerPartner(e2e.portal.url, 'photo-background');
  leftBehindAccount = await registerPartner(e2e.portal.url, 'photo-left-behind');
}, 120_000);

afterAll(async () => {
  await camera.close();
});

/** The photos the tablet keeps, as the page's IndexedDB holds them (their bytes' first letters, not the bytes). */
function tabletPhotos(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ state: string; type: string; bytes: number; width: number; height: number; magic: string }[]>(
        (resolve, reject) => {
          const open = indexedDB.open('garage-portal');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const request = open.result.transaction('photos').objectStore('photos').getAll();
            request.onerror = () => reject(request.error);
            request.onsuccess = async () => {
              const rows = request.result as {
                state: string;
                type: string;
                blob: Blob;
                width: number;
                height: number;
              }[];
              open.result.close();
              resolve(
                await Promise.all(
                  rows.map(async (row) => ({
                    state: row.state,
                    type: row.type,
                    bytes: row.blob.size,
                    width: row.width,
                    height: row.height,
                    magic: new TextDecoder().decode((await row.blob.slice(0, 12).arrayBuffer()).slice(8, 12)),
                  })),
                ),
              );
            };
          };
        },
      ),
  );
}

/** Takes the odometer's photo with the form's camera and waits for its preview. */
async function photographOdometer(page: Page) {
  const form = repairForm(page).form;
  await form.getByRole('button', { name: 'Photographier le compteur' }).click();
  const dialog = page.getByRole('dialog', { name: 'Photo du compteur' });
  await dialog.getByText('Cadrez le compteur, lisible, puis prenez la photo.').waitFor();
  const take = dialog.getByRole('button', { name: 'Prendre la photo' });
  // Where a finger can reach it: the dialogs are taller than a landscape tablet's height otherwise.
  await expectShownWhole(page, take, 'Prendre la photo');
  await take.click();
  await dialog.waitFor({ state: 'hidden' });
  await form.locator('[data-photo-preview]').waitFor();
}

/**
 * The History entry's photo: its state, once shown. History is newest first: a retry's entry stands
 * above its first attempt's.
 */
function entryPhoto(page: Page) {
  return page.locator('[data-entry-photo]').first();
}

/** Signed in under the service worker, an entry recorded offline with its photo: both wait on the tablet. */
async function entryWithPhotoOffline(context: BrowserContext, account: Account, odometer: number) {
  const page = await context.newPage();
  await signIn(page, e2e.portal.url, account);
  await waitForServiceWorker(page);
  await waitUntilReadyOffline(page);
  await goOffline(context); // its service worker too: no background sync sends the entry early
  await fillRepairForm(page, { kodeId: KODE, odometer, type: 'Vidange' });
  await photographOdometer(page);
  await repairForm(page).insert.press('Enter');
  await page
    .getByText('Saisie enregistrée sur la tablette, elle sera envoyée dès le retour de la connexion.')
    .first()
    .waitFor();
  const [kept] = await tabletPhotos(page);
  return { page, kept };
}

describe('the odometer photo', () => {
  it('taken offline with the entry, the tablet closed, then online: one entry and one photo on the server', async () => {
    const repairs = await serverRepairsFromNow(e2e.portal.url, account);
    const context = await tablet.open();
    const page = await context.newPage();
    await signIn(page, e2e.portal.url, account);
    await waitForServiceWorker(page);
    await waitUntilReadyOffline(page);
    // A retry's History lists its first attempt's entry too, whose photo only the server has: shown once
    // online, the service worker keeps it, and the History offline shows it without a failed fetch.
    const sentBefore = repairs.earlier.filter((repair) => repair.photo).length;
    if (sentBefore > 0) {
      await openTab(page, 'Historique');
      await expect.poll(() => page.locator('[data-entry-photo="sent"] img').count(), SYNC_TIMEOUT).toBe(sentBefore);
      await openTab(page, 'Nouvelle saisie');
    }
    await findVehicle(page, KODE, VIN);

    await goOffline(context); // its service worker too: no background sync sends the entry early
    await fillRepairForm(page, { kodeId: KODE, odometer: 128_450, type: 'Vidange', find: true });
    const form = repairForm(page).form;
    await photographOdometer(page);
    const preview = form.locator('[data-photo-preview]');
    // The form shows a small picture made with the photo; the photo kept is 1,600 px wide.
    expect(await preview.getAttribute('data-photo-width')).toBe('1600');
    await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(336);
    await screenshot(page, 'photo-form-preview');

    await repairForm(page).insert.press('Enter');
    await page
      .getByText('Saisie enregistrée sur la tablette, elle sera envoyée dès le retour de la connexion.')
      .first()
      .waitFor();
    expect(await form.locator('[data-photo-preview]').count()).toBe(0);
    const [kept] = await tabletPhotos(page);
    // Made small on the tablet: WebP, 1600 px on its long side (the camera gave 1920), well under 200 KB.
    expect(kept).toMatchObject({ state: 'waiting', type: 'image/webp', width: 1600, height: 900, magic: 'WEBP' });
    expect(kept?.bytes).toBeLessThanOrEqual(200 * 1024);

    await openTab(page, 'Historique');
    await expect.poll(() => entryPhoto(page).getAttribute('data-entry-photo')).toBe('on_tablet');
    await entryPhoto(page).getByText('Photo sur la tablette').waitFor();
    await screenshot(page, 'photo-history-on-tablet');
    expect(await repairs.added()).toEqual([]);

    // The tablet closed, then the network back, then the portal opened again.
    await page.close();
    await context.setOffline(false);
    const again = await context.newPage();
    await again.goto(e2e.portal.url);
    await openTab(again, 'Historique');
    await expect.poll(() => entryPhoto(again).getAttribute('data-entry-photo'), SYNC_TIMEOUT).toBe('sent');
    await entryPhoto(again).getByText('Photo envoyée').waitFor();
    await screenshot(again, 'photo-history-sent');
    expect(await tabletPhotos(again)).toEqual([]);

    const stored = await repairs.added();
    expect(stored).toHaveLength(1);
    const photo = stored[0]?.photo;
    expect(photo).toMatchObject({ width: 1600, height: 900, bytes: kept?.bytes });
    const answer = await fetch(`${e2e.portal.url}${photo?.url}`, {
      headers: { authorization: `Bearer ${account.token}`, 'x-origin': e2e.portal.url },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/webp');
    expect((await answer.arrayBuffer()).byteLength).toBe(kept?.bytes);

    // Tapped, the thumbnail shows the picture whole, from the server now.
    await entryPhoto(again)
      .getByRole('button', { name: `Voir la photo du compteur de ${KODE}` })
      .click();
    const full = again.getByRole('dialog').locator('[data-photo-full]');
    await full.waitFor();
    await expect.poll(() => full.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1600);
    const viewer = again.getByRole('dialog', { name: `Photo du compteur · ${KODE}` });
    await expectShownWhole(again, viewer.getByRole('heading'), "the viewer's title");
    await expectShownWhole(again, viewer.getByRole('button', { name: /Fermer|Close/ }), "the viewer's close button");
    await screenshot(again, 'photo-viewer');
  });

  it('leaves from the service worker after its entry, with every page of the portal closed', async () => {
    const repairs = await serverRepairsFromNow(e2e.portal.url, backgroundAccount);
    const context = await tablet.open();
    const { page, kept } = await entryWithPhotoOffline(context, backgroundAccount, 64_300);
    expect(kept?.state).toBe('waiting');

    // Only a blank page keeps the browser context: no page of the portal runs a sender, the worker does.
    const blank = await context.newPage();
    await page.close();
    await context.setOffline(false);
    await fireSync(blank, e2e.portal.url);
    await expect
      .poll(async () => (await repairs.added())[0]?.photo ?? null, SYNC_TIMEOUT)
      .toMatchObject({ width: kept?.width, height: kept?.height, bytes: kept?.bytes });
    const stored = await repairs.added();
    expect(stored.map((repair) => repair.odometer)).toEqual([64_300]);

    // Opened again, the portal finds the photo sent and none left on the tablet.
    const again = await context.newPage();
    await again.goto(e2e.portal.url);
    await openTab(again, 'Historique');
    await expect.poll(() => entryPhoto(again).getAttribute('data-entry-photo'), SYNC_TIMEOUT).toBe('sent');
    expect(await tabletPhotos(again)).toEqual([]);
  });

  it('moves with the hand-over file to another tablet, and the server keeps one photo whichever tablet sends it', async () => {
    const repairs = await serverRepairsFromNow(e2e.portal.url, handoverAccount);
    const first = await tablet.open();
    const { page, kept } = await entryWithPhotoOffline(first, handoverAccount, 99_000);
    const file = await exportFile(page);

    const second = await newTabletContext(camera);
    const secondConsole = watchConsole(second);
    try {
      const other = await second.newPage();
      await signIn(other, e2e.portal.url, handoverAccount);
      await importFile(other, file);
      await other.getByText('1 saisie ajoutée, 0 déjà présente.').first().waitFor();
      await other.keyboard.press('Escape');
      await openTab(other, 'Historique');
      await expect.poll(() => entryPhoto(other).getAttribute('data-entry-photo'), SYNC_TIMEOUT).toBe('sent');
      expect(secondConsole.unexpected()).toEqual([]);
    } finally {
      await second.close();
    }
    const [sentFromSecond] = await repairs.added();
    expect(sentFromSecond?.photo).toMatchObject({ width: kept?.width, height: kept?.height, bytes: kept?.bytes });

    // The first tablet comes back online: its entry and photo go too, and the server still holds one of each.
    await first.setOffline(false);
    await openTab(page, 'Historique');
    await expect.poll(() => entryPhoto(page).getAttribute('data-entry-photo'), SYNC_TIMEOUT).toBe('sent');
    expect(await tabletPhotos(page)).toEqual([]);
    const stored = await repairs.added();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.photo).toEqual(sentFromSecond?.photo);
  });

  it('whose entry left but not the photo, moves alone with the hand-over file and reaches its repair from the other tablet', async () => {
    const repairs = await serverRepairsFromNow(e2e.portal.url, leftBehindAccount);
    // Its own context: the failed uploads are the browser's console errors this test asks for.
    const first = await newTabletContext(camera);
    // Closed however the test ends: a retry opens its own.
    try {
      // The entry goes; every upload of its photo fails, as on a connection that drops heavy requests.
      await first.route('**/api/partner/repairs/*/photo', (route) =>
        route.request().method() === 'PUT' ? route.abort('connectionreset') : route.continue(),
      );
      // Recorded offline (no reading of the other tests' to confirm it against), then the network is back.
      const { page, kept } = await entryWithPhotoOffline(first, leftBehindAccount, 77_700);
      await first.setOffline(false);
      await expect.poll(async () => (await repairs.added()).length, SYNC_TIMEOUT).toBe(1);
      await openTab(page, 'Historique');
      await expect.poll(() => entryPhoto(page).getAttribute('data-entry-photo'), SYNC_TIMEOUT).toBe('sending');

      // Nothing waits in the outbox, yet the export offers the photo, and says what it carried.
      const file = await exportFile(page);
      await page.getByText('0 saisie, 1 photo d’une saisie déjà envoyée.').first().waitFor();
      expect((await repairs.added())[0]?.photo).toBeNull();

      const second = await newTabletContext(camera);
      try {
        const other = await second.newPage();
        await signIn(other, e2e.portal.url, leftBehindAccount);
        await importFile(other, file);
        await other
          .getByText('0 saisie ajoutée, 0 déjà présente, 1 photo de saisie déjà envoyée ajoutée.')
          .first()
          .waitFor();
        await other.keyboard.press('Escape');
        await expect
          .poll(async () => (await repairs.added())[0]?.photo ?? null, SYNC_TIMEOUT)
          .toMatchObject({ width: kept?.width, height: kept?.height, bytes: kept?.bytes });
        // Imported again: the server has it, nothing is added.
        await importFile(other, file);
        await other.getByText('0 saisie ajoutée, 0 déjà présente.').first().waitFor();
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
    expect(await repairs.added()).toHaveLength(1);
  });
});
