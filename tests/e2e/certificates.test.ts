/**
 * The mileage certificate (docs/PRODUCT.md#mileage-certificate) in Chromium, against the real portal:
 * a garage issues one from a vehicle's timeline, with the owner's consent (without it nothing is sent,
 * and the entry form around the dialog is not submitted either); a signed-out reader opens its link and
 * the browser verifies its signature; it prints on one A4 page without its buttons; its QR code decodes
 * to the page's address; the same in Arabic, right to left and dark; a payload altered on the way says
 * it was tampered with; and once the garage revokes it from the History, its page says so.
 *
 * The tests run in order and share the certificate the first one issues, and the garage's tablet that
 * issued it, which revokes it in the last one. Screenshots for a person to look at (not baselines) go to
 * /tmp/certificate-shots/.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page, Request } from 'playwright-core';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { type DemoVehicle, perAttempt, SPARE_VEHICLES } from './support/attempt';
import { blockedRequests, newTabletContext, TABLET_VIEWPORTS, type TabletContextOptions } from './support/browser';
import { captureFailedTest } from './support/failure-capture';
import { type Account, type ConsoleWatch, findVehicle, registerPartner, signIn, watchConsole } from './support/offline';
import { appColorMode, dismissToasts, expectToast, FR, recordRepairViaApi, translation } from './support/pages';
import { useE2eSetting } from './support/setting';
import { selectTab } from './support/tabs';
import { scaled } from '../support/host-speed';

const e2e = useE2eSetting();
const SHOTS = '/tmp/certificate-shots';
const DAY = 86_400_000;

/** A certificate's id (contract/certificate.ts): four groups of four of its alphabet. */
const CERTIFICATE_ID = /[0-9A-HJKMNP-TV-Z]{4}(?:-[0-9A-HJKMNP-TV-Z]{4}){3}/;
/** The readings the first test records on its vehicle, oldest first, as the certificate holds them. */
const READINGS = [
  { km: 61_000, daysAgo: 20 },
  { km: 64_500, daysAgo: 3 },
] as const;

// ---------------------------------------------------------------------------------------------
// Tablets, their console watched

interface Tablet {
  context: BrowserContext;
  console: ConsoleWatch;
  /** How many of its console errors an earlier test already reported. */
  reported: number;
  /** Kept open after the test (the garage's tablet, until the file ends). */
  keep: boolean;
}

const tablets: Tablet[] = [];

async function openTablet(options: TabletContextOptions = {}, { keep = false } = {}): Promise<BrowserContext> {
  const context = await newTabletContext(e2e.browser, options);
  tablets.push({ context, console: watchConsole(context), reported: 0, keep });
  return context;
}

/** Every console error or uncaught exception of a tablet that no test reported yet. */
function newConsoleErrors(): string[] {
  return tablets.flatMap((tablet) => {
    const all = tablet.console.unexpected();
    const fresh = all.slice(tablet.reported);
    tablet.reported = all.length;
    return fresh;
  });
}

async function closeTablets(which: (tablet: Tablet) => boolean): Promise<void> {
  const closing = tablets.filter(which);
  for (const tablet of closing) tablets.splice(tablets.indexOf(tablet), 1);
  await Promise.all(closing.map((tablet) => tablet.context.close()));
}

afterEach(async ({ task }) => {
  const unexpected = newConsoleErrors();
  // Pictured before the test's tablets close: the failure hook runs after this one.
  if (task.result?.state === 'fail') await captureFailedTest(task);
  await closeTablets((tablet) => !tablet.keep);
  expect(unexpected, 'console errors').toEqual([]);
});

afterAll(() => closeTablets(() => true));

// ---------------------------------------------------------------------------------------------
// What the tests share: the garage, its tablet, the certificate it issued

/** The garage that issues the certificate, registered once for the file (5 registrations per hour). */
let garage: Account;
beforeAll(async () => {
  garage = await registerPartner(e2e.portal.url, 'certificates');
});

interface Issued {
  id: string;
  /** The absolute address of its public page, as the dialog links it. */
  address: string;
  /** The garage's tablet that issued it, still on the dashboard, signed in. */
  garagePage: Page;
}

let issued: Issued | undefined;

/** The certificate the first test issued: the later tests read and revoke it. */
function issuedCertificate(): Issued {
  if (!issued) throw new Error('no certificate: the first test ("issues one from the timeline") did not pass');
  return issued;
}

/** A full-page picture, from the top: a full-page picture of a scrolled page repeats the sticky header lower down. */
async function shoot(page: Page, name: string): Promise<void> {
  await fs.mkdir(SHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

// ---------------------------------------------------------------------------------------------
// The garage's side: the timeline's button and its dialog

function timelineSection(page: Page): Locator {
  return page.locator('section[aria-labelledby="vehicle-timeline-title"]');
}

function certificateDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Certificat kilométrique' });
}

/** Every request the page sends from now on, as "METHOD pathname". */
function watchRequests(page: Page): { sent: () => string[] } {
  const sent: string[] = [];
  page.on('request', (request: Request) => sent.push(`${request.method()} ${new URL(request.url()).pathname}`));
  return { sent: () => [...sent] };
}

/** The readings, stored through the API by the garage itself. */
async function recordReadings(kodeId: string): Promise<void> {
  for (const reading of READINGS) {
    await recordRepairViaApi(e2e.portal.url, garage, {
      kode_id: kodeId,
      repair_type_id: 'oil_change',
      odometer: reading.km,
      recorded_at: new Date(Date.now() - reading.daysAgo * DAY).toISOString(),
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The reader's side: the public page

/** Opens the certificate's page in this (signed-out) context and waits until the browser checked it. */
async function openCertificatePage(context: BrowserContext, address: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(address);
  await verificationNotice(page).waitFor({ timeout: scaled(15_000) });
  return page;
}

function verificationNotice(page: Page): Locator {
  return page.locator('[data-testid="certificate-verification"]');
}

async function verification(page: Page): Promise<{ outcome: string | null; text: string }> {
  const notice = verificationNotice(page);
  return { outcome: await notice.getAttribute('data-outcome'), text: await notice.innerText() };
}

function certificateStatus(page: Page): Promise<string | null> {
  return page.locator('[data-testid="certificate-status"]').getAttribute('data-status');
}

/** The km of each reading in the table, in its order, whatever the language writes around the digits. */
function readingsKm(page: Page): Promise<number[]> {
  return page
    .locator('[data-testid="certificate-readings"] tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) =>
        Number(((row as HTMLTableRowElement).cells[1]?.querySelector('bdi')?.textContent ?? '').replace(/\D/g, '')),
      ),
    );
}

/** The Arabic of a French text of the portal, which the tests expect translated. */
function arabic(french: string): string {
  const text = translation('ar', french);
  if (text === null) throw new Error(`no Arabic for "${french}" in the catalogs`);
  return text;
}

/** The page's own buttons, which print leaves off the paper, by their names in the page's language. */
function pageButtons(page: Page, say: (french: string) => string = (french) => french): Locator[] {
  return ['Imprimer', 'Partager'].map((name) => page.getByRole('button', { name: say(name), exact: true }));
}

/**
 * Prints the page, as 'Imprimer' would: in print media its buttons are gone; the page is pictured, and
 * printed to PDF on A4 as its own CSS asks, saved beside the pictures. Returns the PDF's number of pages.
 */
async function printCertificate(page: Page, name: string, buttons: Locator[]): Promise<number> {
  for (const button of buttons) expect(await button.isVisible(), 'a button on screen').toBe(true);
  await page.emulateMedia({ media: 'print' });
  for (const button of buttons) expect(await button.isVisible(), 'a button on paper').toBe(false);
  // Paper is light whatever the tablet's colour mode: a dark page would print its margins dark.
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('light');
  await shoot(page, name);
  const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
  await fs.writeFile(path.join(SHOTS, `${name}.pdf`), pdf);
  // No emulation again: the screen shows the screen's styles, and page.pdf prints with print media
  // unless 'screen' is emulated.
  await page.emulateMedia({ media: null });
  return (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
}

// ---------------------------------------------------------------------------------------------
// The QR code, read back as a phone's camera would

const require = createRequire(import.meta.url);
let qrReader: Promise<unknown> | undefined;

/** zxing's reader, its WebAssembly read from node_modules (never from a CDN: no test reaches the internet). */
function prepareQrReader(): Promise<unknown> {
  qrReader ??= fs
    .readFile(require.resolve('zxing-wasm/reader/zxing_reader.wasm'))
    .then((wasm) =>
      prepareZXingModule({ overrides: { wasmBinary: new Uint8Array(wasm).buffer }, fireImmediately: true }),
    );
  return qrReader;
}

/** White around the code, as paper or a light page gives it, whatever the page's colour mode. */
const QR_MARGIN = 16;

/** The QR code as the screen shows it, with a white margin; what a reader decodes from it. */
async function decodeQrCode(page: Page): Promise<string[]> {
  await prepareQrReader();
  const qr = page.locator('[data-testid="certificate-qr"]');
  await qr.scrollIntoViewIfNeeded();
  const box = await qr.boundingBox();
  if (!box) throw new Error('the QR code is not on screen');
  const png = await page.screenshot({
    clip: {
      x: box.x - QR_MARGIN,
      y: box.y - QR_MARGIN,
      width: box.width + 2 * QR_MARGIN,
      height: box.height + 2 * QR_MARGIN,
    },
    style: `[data-testid="certificate-qr"] { outline: ${QR_MARGIN}px solid #fff; }`,
  });
  const results = await readBarcodes(new Blob([new Uint8Array(png)]), { formats: ['QRCode'] });
  return results.map((result) => result.text);
}

/** The QR code's own value (data-value) and what it decodes to: both the page's address. */
async function expectQrCodeOfPage(page: Page): Promise<void> {
  const value = await page.locator('[data-testid="certificate-qr"] svg[role="img"]').getAttribute('data-value');
  expect(value).toBe(page.url());
  expect(await decodeQrCode(page)).toEqual([page.url()]);
}

// ---------------------------------------------------------------------------------------------

describe('mileage certificate', () => {
  it('issues one from the timeline, only with the owner’s consent, and links its public page', async ({ task }) => {
    // A retry starts from a vehicle with no readings: the certificate would hold its first attempt's too.
    const vehicle = perAttempt<DemoVehicle>(task, [SPARE_VEHICLES[0], SPARE_VEHICLES[1]]);
    await recordReadings(vehicle.kodeId);
    // A retry's tablet replaces the first attempt's.
    await closeTablets((tablet) => tablet.keep);
    const context = await openTablet({ orientation: 'landscape' }, { keep: true });
    const page = await context.newPage();
    await signIn(page, e2e.portal.url, garage);
    await findVehicle(page, vehicle.kodeId, vehicle.vin);
    const timeline = timelineSection(page);
    const button = timeline.getByRole('button', { name: 'Certificat kilométrique' });
    await button.waitFor();
    await timeline.getByRole('listitem').first().waitFor();
    // The sign-in's and the lookup's toasts would stand over the form in the pictures.
    await dismissToasts(page);
    await shoot(page, 'timeline-1024x768');
    await page.setViewportSize(TABLET_VIEWPORTS.portrait);
    await button.waitFor();
    await shoot(page, 'timeline-800x1280');
    await page.setViewportSize(TABLET_VIEWPORTS.landscape);

    await button.click();
    const dialog = certificateDialog(page);
    await dialog.waitFor();
    const consent = dialog.getByRole('checkbox', { name: 'Le propriétaire du véhicule a demandé ce certificat.' });
    const issue = dialog.getByRole('button', { name: 'Émettre le certificat' });

    // Without the owner's consent: said, nothing sent, and the entry form around the dialog not submitted.
    const requests = watchRequests(page);
    await issue.click();
    await dialog.getByText('Confirmez que le propriétaire a demandé le certificat').waitFor();
    expect(requests.sent().filter((request) => request.startsWith('POST '))).toEqual([]);
    expect(await page.getByText(FR.repairTypeRequired).count()).toBe(0);
    expect(await dialog.isVisible()).toBe(true);

    // With it: issued, and its page linked by its absolute address.
    await consent.check();
    await issue.click();
    const notice = dialog.getByRole('status').filter({ has: page.getByRole('link', { name: 'Ouvrir le certificat' }) });
    await notice.waitFor({ timeout: scaled(15_000) });
    const id = CERTIFICATE_ID.exec(await notice.innerText())?.[0];
    expect(id, 'the id in the notice').toBeDefined();
    expect(await notice.innerText()).toContain(`Certificat ${id} émis`);
    const address = await notice.getByRole('link', { name: 'Ouvrir le certificat' }).getAttribute('href');
    expect(address).toBe(`${e2e.portal.url}/c/${id}`);
    expect(requests.sent().filter((request) => request.startsWith('POST '))).toEqual([
      `POST /api/partner/vehicles/${vehicle.kodeId}/certificates`,
    ]);
    expect(await page.getByText(FR.repairTypeRequired).count()).toBe(0);
    // A second certificate asks for the consent again; this one is in the vehicle's list already.
    expect(await consent.isChecked()).toBe(false);
    await dialog
      .getByRole('list', { name: 'Certificats émis pour ce véhicule' })
      .getByRole('listitem')
      .filter({ hasText: id! })
      .waitFor();
    await shoot(page, 'dialog-issued');

    issued = { id: id!, address: address!, garagePage: page };
  });

  it('opens signed out: signature verified, status valid, the readings; one A4 page printed; its QR code reads back its address', async () => {
    const { id, address } = issuedCertificate();
    const context = await openTablet({ orientation: 'portrait' });
    const page = await openCertificatePage(context, address);
    expect(page.url()).toBe(address);

    expect(await verification(page)).toEqual({
      outcome: 'verified',
      text: expect.stringContaining('Signature vérifiée'),
    });
    expect(await page.locator('[data-testid="certificate-id"]').innerText()).toBe(id);
    expect(await certificateStatus(page)).toBe('valid');
    expect(await readingsKm(page)).toEqual(READINGS.map((reading) => reading.km));
    expect(await page.locator('[data-km-chart]').count()).toBe(1);
    // Nobody signed in: the portal's dashboard is nowhere. Nothing was asked of another host (a CDN).
    expect(await page.locator('[role="tablist"]').count()).toBe(0);
    expect(blockedRequests(context)).toEqual([]);

    await expectQrCodeOfPage(page);
    await shoot(page, 'public-fr-light-800x1280');
    await page.setViewportSize(TABLET_VIEWPORTS.landscape);
    await shoot(page, 'public-fr-light-1024x768');
    await page.setViewportSize(TABLET_VIEWPORTS.portrait);

    expect(await printCertificate(page, 'print-fr', pageButtons(page)), 'printed pages').toBe(1);
  });

  it('reads the same in Arabic, right to left and dark: verified, its QR code, one A4 page', async () => {
    const { id, address } = issuedCertificate();
    const verified = arabic('Signature vérifiée');
    const context = await openTablet({ orientation: 'portrait', locale: 'ar-DZ', colorScheme: 'dark' });
    const page = await openCertificatePage(context, address);

    // The reader's browser speaks Arabic: the page does too, for this visit.
    await expect.poll(() => page.getAttribute('html', 'lang'), { timeout: scaled(10_000) }).toBe('ar');
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await appColorMode(page)).toBe('dark');
    await expect.poll(async () => (await verification(page)).text).toContain(verified);
    expect(await verification(page)).toEqual({
      outcome: 'verified',
      text: expect.not.stringContaining('Signature vérifiée'),
    });
    expect(await page.locator('[data-testid="certificate-id"]').innerText()).toBe(id);
    expect(await certificateStatus(page)).toBe('valid');
    expect(await readingsKm(page)).toEqual(READINGS.map((reading) => reading.km));

    await expectQrCodeOfPage(page);
    await shoot(page, 'public-ar-dark-800x1280');
    await page.setViewportSize(TABLET_VIEWPORTS.landscape);
    await shoot(page, 'public-ar-dark-1024x768');
    await page.setViewportSize(TABLET_VIEWPORTS.portrait);

    expect(await printCertificate(page, 'print-ar', pageButtons(page, arabic)), 'printed pages').toBe(1);
  });

  it('says a certificate altered on its way is tampered with, never that its signature holds', async () => {
    const { id, address } = issuedCertificate();
    const context = await openTablet();
    const [altered, alteredKm] = [READINGS[1].km, READINGS[1].km + 1];
    let tampered = 0;
    // One digit of a reading's km, in the bytes the server sent: 64500 becomes 64501.
    await context.route(`${e2e.portal.url}/api/public/certificates/${id}`, async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      const changed = body.replace(new RegExp(`"km":${altered}(?=[,}])`), `"km":${alteredKm}`);
      if (changed !== body) tampered += 1;
      await route.fulfill({ status: response.status(), contentType: 'application/json', body: changed });
    });
    const page = await openCertificatePage(context, address);

    expect(tampered, 'answers altered').toBeGreaterThan(0);
    const found = await verification(page);
    expect(found.outcome).toBe('tampered');
    expect(found.text).toContain('Certificat falsifié : ne vous y fiez pas');
    expect(await page.getByText('Signature vérifiée').count()).toBe(0);
    // What the altered answer says is shown, headed as not vouched for, without the chart.
    expect(await readingsKm(page)).toEqual([READINGS[0].km, alteredKm]);
    expect(await page.locator('[data-testid="certificate-readings"]').getAttribute('data-trusted')).toBe('false');
    await page.getByRole('heading', { name: 'Relevés non garantis' }).waitFor();
    expect(await page.locator('[data-km-chart]').count()).toBe(0);
    await shoot(page, 'public-tampered-1024x768');
  });

  it('revoked from the History: its page says so, reloaded by a signed-out reader', async () => {
    const { id, address, garagePage: page } = issuedCertificate();
    const reader = await openCertificatePage(await openTablet({ orientation: 'portrait' }), address);
    expect(await certificateStatus(reader)).toBe('valid');

    const dialog = certificateDialog(page);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await selectTab(page.locator('[role="tab"][data-value="history"]'));
    const line = page
      .getByRole('region', { name: 'Certificats kilométriques émis' })
      .getByRole('listitem')
      .filter({ hasText: id });
    await line.waitFor({ timeout: scaled(15_000) });
    await line.getByRole('button', { name: 'Révoquer' }).click();
    const confirmation = page.getByRole('alertdialog', { name: 'Révoquer ce certificat ?' });
    await confirmation.getByRole('button', { name: 'Révoquer' }).click();
    await expectToast(page, 'success', 'Certificat révoqué : sa page le dit désormais.', scaled(15_000));
    await confirmation.waitFor({ state: 'hidden' });
    await line.getByText('Révoqué le').waitFor();
    expect(await line.getByRole('button', { name: 'Révoquer' }).count()).toBe(0);
    await dismissToasts(page);
    await shoot(page, 'history-revoked');

    await reader.reload();
    await verificationNotice(reader).waitFor({ timeout: scaled(15_000) });
    expect(await certificateStatus(reader)).toBe('revoked');
    expect(await reader.locator('[data-testid="certificate-status"]').innerText()).toContain(
      'Révoqué par le garage le',
    );
    // Revoking changes its status, not its content: the signature still holds.
    expect((await verification(reader)).outcome).toBe('verified');
    await shoot(reader, 'public-revoked-800x1280');
  });
});
