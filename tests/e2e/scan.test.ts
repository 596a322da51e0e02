/**
 * Scanning in Chromium with a fake camera (docs/PRODUCT.md#scanning-and-the-vin-check): the test writes
 * Y4M videos of codes (a KODE ID as a QR code, a Code 128 label and a Data Matrix; a VIN as the Code 39
 * of a door pillar; a QR code that is neither) and starts one Chromium per video
 * (the fake capture device is the browser's). Chromium on Linux has no BarcodeDetector of its own, so
 * every scan here goes through ZXing's WebAssembly, served by the portal or, offline, the precache.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedRequests, launchBrowser, screenshot } from './support/browser';
import { fakeCameraArgs, writeCodeClip } from './support/camera';
import { expectShownWhole, TABLET_SIZES } from './support/geometry';
import {
  contextPerTest,
  fillRepairForm,
  findVehicle,
  precachedPaths,
  registerPartner,
  repairForm,
  signIn,
  waitForPrecache,
  waitForServiceWorker,
  type Account,
} from './support/offline';
import { useE2eSetting } from './support/setting';
import { scaled } from '../support/host-speed';
import { SCANNER_CODE_CACHE } from '../../src/lib/cache-names';

const e2e = useE2eSetting();

const KODE = 'KODE000001';
const VIN = 'VF1S1CD16RB267735';
const OTHER_KODE = 'KODE000002';
const OTHER_VIN = 'VF12T7VY4HJ685969';
const NOT_A_KODE_ID = 'REPAIR-2024-0042';
const SCAN_TIMEOUT = { timeout: scaled(20_000), interval: 200 };

type Camera = 'kode' | 'kode-code128' | 'kode-datamatrix' | 'vin' | 'other' | 'refused';
const cameras = new Map<Camera, Browser>();
let current: Browser | undefined;
const tablet = contextPerTest(() => {
  if (!current) throw new Error('no camera chosen');
  return current;
});
// One account per block of tests: a browser without the device cookie may sign an email in 10 times
// per 15 minutes, and each test signs in on a fresh tablet.
let account: Account;
let vinAccount: Account;

beforeAll(async () => {
  const clips = {
    kode: await writeCodeClip('kode-id-qr', 'qrcode', KODE),
    kodeCode128: await writeCodeClip('kode-id-code128', 'code128', KODE),
    kodeDataMatrix: await writeCodeClip('kode-id-datamatrix', 'datamatrix', KODE),
    vin: await writeCodeClip('vin-code39', 'code39', VIN),
    other: await writeCodeClip('not-a-kode-id', 'qrcode', NOT_A_KODE_ID),
  };
  const launches: [Camera, string, boolean][] = [
    ['kode', clips.kode, true],
    ['kode-code128', clips.kodeCode128, true],
    ['kode-datamatrix', clips.kodeDataMatrix, true],
    ['vin', clips.vin, true],
    ['other', clips.other, true],
    ['refused', clips.kode, false],
  ];
  for (const [camera, clip, granted] of launches) {
    cameras.set(camera, await launchBrowser({ extraArgs: fakeCameraArgs(clip, { granted }) }));
  }
  account = await registerPartner(e2e.portal.url, 'scan');
  vinAccount = await registerPartner(e2e.portal.url, 'scan-vin');
}, 120_000);

afterAll(async () => {
  for (const browser of cameras.values()) await browser.close();
});

/** Signs in on a tablet whose camera films `camera`; every stream the page opens is kept to check it stops. */
async function dashboardWith(camera: Camera, partner: Account = account): Promise<Page> {
  current = cameras.get(camera);
  const context = await tablet.open();
  await context.addInitScript(() => {
    const streams: MediaStream[] = [];
    Object.assign(window, { scanStreams: streams });
    const media = navigator.mediaDevices;
    if (!media) return;
    const open = media.getUserMedia.bind(media);
    media.getUserMedia = async (constraints) => {
      const stream = await open(constraints);
      streams.push(stream);
      return stream;
    };
  });
  const page = await context.newPage();
  await signIn(page, e2e.portal.url, partner);
  return page;
}

/** The camera's tracks the page opened, and whether each still runs. */
function liveTracks(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      (window as unknown as { scanStreams: MediaStream[] }).scanStreams
        .flatMap((stream) => stream.getTracks())
        .filter((track) => track.readyState === 'live').length,
  );
}

/** The height an element is laid out at, transforms aside. */
function layoutHeight(element: Locator): Promise<number> {
  return element.evaluate((node) => (node as HTMLElement).offsetHeight);
}

function scanDialog(page: Page, name: 'Scanner le KODE ID' | 'Scanner le VIN') {
  return page.getByRole('dialog', { name });
}

describe('scanning the KODE ID', () => {
  it('fills the field from a QR code of KODE000001 and finds the vehicle, without any CDN', async () => {
    const page = await dashboardWith('kode');
    const fields = repairForm(page);
    await fields.form.getByRole('button', { name: 'Scanner' }).click();
    await expect.poll(() => fields.kodeId.inputValue(), SCAN_TIMEOUT).toBe(KODE);
    await expect.poll(() => fields.form.getByLabel('VIN', { exact: true }).inputValue(), SCAN_TIMEOUT).toBe(VIN);
    await scanDialog(page, 'Scanner le KODE ID').waitFor({ state: 'hidden' });
    await expect.poll(() => liveTracks(page)).toBe(0);
    expect(blockedRequests(tablet.context)).toEqual([]);
  });

  it('fills the field from a Code 128 label and from a Data Matrix of KODE000001 too', async () => {
    for (const camera of ['kode-code128', 'kode-datamatrix'] as const) {
      const page = await dashboardWith(camera);
      const fields = repairForm(page);
      await fields.form.getByRole('button', { name: 'Scanner' }).click();
      await expect.poll(() => fields.kodeId.inputValue(), SCAN_TIMEOUT).toBe(KODE);
      await expect.poll(() => fields.form.getByLabel('VIN', { exact: true }).inputValue(), SCAN_TIMEOUT).toBe(VIN);
      await tablet.context.close();
    }
  });

  it('says what was read and why it is not a KODE ID; the camera stops when hidden and when closed', async () => {
    const page = await dashboardWith('other');
    const fields = repairForm(page);
    await fields.form.getByRole('button', { name: 'Scanner' }).click();
    const dialog = scanDialog(page, 'Scanner le KODE ID');
    const refused = dialog.locator('[data-refused]');
    await refused.waitFor(SCAN_TIMEOUT);
    const text = (await refused.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain(`Code lu : ${NOT_A_KODE_ID}`);
    expect(text).toContain("Ce n'est pas un KODE ID : il compte 16 caractères au lieu de 10.");
    // Seen while aiming, at every tablet size: not below the fold of the dialog's body.
    for (const size of TABLET_SIZES) {
      await page.setViewportSize(size);
      const at = `${size.width}×${size.height}`;
      await expectShownWhole(page, dialog.locator('[data-scan-status]'), `the scanner's instruction at ${at}`);
      await expectShownWhole(page, refused, `what was read and why it is refused at ${at}`);
      await expectShownWhole(
        page,
        dialog.getByRole('button', { name: 'Saisir au clavier' }),
        `Saisir au clavier at ${at}`,
      );
      await screenshot(page, `scan-kode-id-refused-code-${at}`);
    }

    // The tab hidden: the camera stops until the mechanic resumes.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await dialog.getByText("Caméra arrêtée pendant que l'application était masquée.").waitFor();
    await expect.poll(() => liveTracks(page)).toBe(0);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    });
    await dialog.getByRole('button', { name: 'Reprendre le scan' }).click();
    await expect.poll(() => liveTracks(page), SCAN_TIMEOUT).toBe(1);

    await dialog.getByRole('button', { name: 'Saisir au clavier' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => liveTracks(page)).toBe(0);
    expect(await fields.kodeId.inputValue()).toBe('');
    await findVehicle(page, KODE, VIN);
  });

  it('says the camera was refused, and manual entry keeps working', async () => {
    const page = await dashboardWith('refused');
    const fields = repairForm(page);
    const scan = fields.form.getByRole('button', { name: 'Scanner' });
    // Big enough for a thumb: the Scan button and every control of the scanner are at least 48 px high
    // (laid out: the dialog's opening animation scales what it holds for a moment).
    expect(await layoutHeight(scan)).toBeGreaterThanOrEqual(48);
    await scan.click();
    const dialog = scanDialog(page, 'Scanner le KODE ID');
    await dialog.locator('[data-problem="denied"]').waitFor(SCAN_TIMEOUT);
    expect(await dialog.getByRole('alert').innerText()).toContain("L'accès à la caméra a été refusé.");
    await screenshot(page, 'scan-camera-refused');
    for (const control of await dialog.getByRole('button').all()) {
      expect(await layoutHeight(control), await control.innerText()).toBeGreaterThanOrEqual(48);
    }
    await dialog.getByRole('button', { name: 'Saisir au clavier' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await findVehicle(page, KODE, VIN);
  });

  it('works offline, its ZXing WebAssembly fetched ahead and kept by the worker (not precached)', async () => {
    const page = await dashboardWith('kode');
    await waitForServiceWorker(page);
    await waitForPrecache(page);
    expect((await precachedPaths(page)).some((path) => path.endsWith('.wasm'))).toBe(false);
    // This browser has no BarcodeDetector of its own: the page fetched the WebAssembly in the
    // background once the worker ran, and the worker kept it (src/features/dashboard/scan/prefetch.ts).
    await expect
      .poll(
        () =>
          page.evaluate(async (name) => {
            const requests = await (await caches.open(name)).keys();
            return requests.some((request) => request.url.endsWith('.wasm'));
          }, SCANNER_CODE_CACHE),
        { timeout: scaled(15_000) },
      )
      .toBe(true);
    await tablet.context.setOffline(true);
    const fields = repairForm(page);
    await fields.form.getByRole('button', { name: 'Scanner' }).click();
    await expect.poll(() => fields.kodeId.inputValue(), SCAN_TIMEOUT).toBe(KODE);
    // Never looked up on this tablet: Find says so, and the entry can still be recorded.
    await fields.form
      .getByText("Hors connexion : ce véhicule n'a pas encore été consulté sur cette tablette.")
      .waitFor();
    await expect.poll(() => liveTracks(page)).toBe(0);
  });

  it('offline too, says the camera was refused and leaves manual entry working', async () => {
    const page = await dashboardWith('refused');
    await findVehicle(page, KODE, VIN);
    await waitForServiceWorker(page);
    await waitForPrecache(page);
    await tablet.context.setOffline(true);
    const fields = repairForm(page);
    await fields.kodeId.fill('');
    await fields.form.getByRole('button', { name: 'Scanner' }).click();
    const dialog = scanDialog(page, 'Scanner le KODE ID');
    await dialog.locator('[data-problem="denied"]').waitFor(SCAN_TIMEOUT);
    expect(await dialog.getByRole('alert').innerText()).toContain("L'accès à la caméra a été refusé.");
    await dialog.getByRole('button', { name: 'Saisir au clavier' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Typed by hand, the vehicle looked up before comes from the tablet.
    await findVehicle(page, KODE, VIN);
  });
});

describe('checking the VIN', () => {
  it('confirms the VIN scanned on the vehicle found', async () => {
    const page = await dashboardWith('vin', vinAccount);
    const fields = repairForm(page);
    await findVehicle(page, KODE, VIN);
    const scanVin = fields.form.getByRole('button', { name: 'Scanner le VIN' });
    expect(await layoutHeight(scanVin)).toBeGreaterThanOrEqual(48);
    await scanVin.click();
    await expect.poll(() => fields.form.getByLabel('Vérification du VIN').inputValue(), SCAN_TIMEOUT).toBe(VIN);
    await fields.form.getByText("VIN confirmé : c'est bien le véhicule affiché.").waitFor();
    await screenshot(page, 'scan-vin-confirmed');
  });

  it('warns of another vehicle’s VIN before Insert', async () => {
    const page = await dashboardWith('vin', vinAccount);
    const fields = repairForm(page);
    await findVehicle(page, OTHER_KODE, OTHER_VIN);
    await fields.form.getByRole('button', { name: 'Scanner le VIN' }).click();
    const check = fields.form.getByLabel('Vérification du VIN');
    await expect.poll(() => check.inputValue(), SCAN_TIMEOUT).toBe(VIN);
    await fields.form.getByText('Ce VIN ne correspond pas au véhicule affiché.', { exact: false }).waitFor();

    await fillRepairForm(page, { kodeId: OTHER_KODE, odometer: 120_000, type: 'Vidange' });
    await fields.insert.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Vérifiez le VIN' });
    await dialog.waitFor();
    const text = await dialog.innerText();
    expect(text).toContain(OTHER_VIN);
    expect(text).toContain(VIN);
    await screenshot(page, 'scan-vin-mismatch-before-insert');
    await dialog.getByRole('button', { name: 'Revenir à la saisie' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await fields.kodeId.inputValue()).toBe(OTHER_KODE);

    await fields.insert.press('Enter');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Enregistrer quand même' }).click();
    await expect.poll(() => fields.kodeId.inputValue(), { timeout: scaled(15_000) }).toBe('');
  });

  it('offline, confirms the VIN of a vehicle looked up before and warns of another’s', async () => {
    const page = await dashboardWith('vin', vinAccount);
    const fields = repairForm(page);
    // Both vehicles looked up once online: the tablet keeps them for offline use.
    await findVehicle(page, OTHER_KODE, OTHER_VIN);
    await findVehicle(page, KODE, VIN);
    await waitForServiceWorker(page);
    await waitForPrecache(page);
    await tablet.context.setOffline(true);

    await findVehicle(page, KODE, VIN);
    await fields.form.getByRole('button', { name: 'Scanner le VIN' }).click();
    await expect.poll(() => fields.form.getByLabel('Vérification du VIN').inputValue(), SCAN_TIMEOUT).toBe(VIN);
    await fields.form.getByText("VIN confirmé : c'est bien le véhicule affiché.").waitFor();

    await findVehicle(page, OTHER_KODE, OTHER_VIN);
    await fields.form.getByRole('button', { name: 'Scanner le VIN' }).click();
    await expect.poll(() => fields.form.getByLabel('Vérification du VIN').inputValue(), SCAN_TIMEOUT).toBe(VIN);
    await fields.form.getByText('Ce VIN ne correspond pas au véhicule affiché.', { exact: false }).waitFor();
    await expect.poll(() => liveTracks(page)).toBe(0);
  });
});
