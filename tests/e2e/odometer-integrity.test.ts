/**
 * Odometer integrity in Chromium against the real portal (docs/PRODUCT.md#odometer-plausibility): a
 * lookup shows the vehicle's timeline with another garage's reading; a lower reading is warned of
 * before Insert, stored anyway and judged implausible; the mechanic corrects it within the window and
 * the original shows replaced. Offline, the timeline stays, the warning counts queued entries, and a
 * correction waits in the outbox; back online, the server holds each once with consistent verdicts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { perAttempt, SPARE_VEHICLES } from './support/attempt';
import { screenshot } from './support/browser';
import { lookUpVehicle, setAppColorMode } from './support/pages';
import {
  type Account,
  contextPerTest,
  fillRepairForm,
  findVehicle,
  historyRows,
  openTab,
  registerPartner,
  repairForm,
  serverRepairs,
  signIn,
  SYNC_TIMEOUT,
  waitForPrecache,
} from './support/offline';
import { useE2eSetting } from './support/setting';
import { scaled } from '../support/host-speed';

const e2e = useE2eSetting();
const tablet = contextPerTest(() => e2e.browser);

const DAY = 86_400_000;

/**
 * Another garage, registered once for the file: a retry registers only its own mechanic (5
 * registrations per hour and portal).
 */
let elsewhere: Account;
beforeAll(async () => {
  elsewhere = await registerPartner(e2e.portal.url, 'elsewhere');
});

/** Another garage's reading, stored through the API. */
async function recordElsewhere(account: Account, odometer: number, recordedAt: string, kodeId: string) {
  const response = await fetch(`${e2e.portal.url}/api/partner/repairs`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${account.token}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
      'x-origin': e2e.portal.url,
    },
    body: JSON.stringify({
      kode_id: kodeId,
      odometer,
      repair_type_id: 'oil_change',
      consented: true,
      recorded_at: recordedAt,
    }),
  });
  expect(response.status).toBe(201);
}

function timeline(page: Page) {
  return page.getByRole('region', { name: 'Relevés du véhicule' });
}

async function timelineLines(page: Page): Promise<string[]> {
  return (
    await timeline(page).getByRole('list', { name: 'Derniers relevés' }).getByRole('listitem').allInnerTexts()
  ).map((text) => text.replace(/\s+/g, ' ').trim());
}

/** Fills the form and presses Insert; the reading is lower than the last known: confirm it. */
async function insertConfirmingLowerReading(page: Page, kodeId: string, odometer: number) {
  const fields = repairForm(page);
  await fillRepairForm(page, { kodeId, odometer, type: 'Vidange' });
  await fields.insert.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'Vérifiez le kilométrage' });
  await dialog.waitFor();
  expect(await dialog.innerText()).toContain(
    'Le kilométrage saisi est inférieur au dernier relevé connu pour ce véhicule.',
  );
  await dialog.getByRole('button', { name: 'Confirmer le kilométrage' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(() => fields.kodeId.inputValue(), { timeout: scaled(15_000) }).toBe('');
}

const rowWith = async (page: Page, km: RegExp) =>
  (await historyRows(page)).find((row) => km.test(row.odometer.replace(/\s/g, ' ')));

describe('odometer integrity', () => {
  it('timeline, warning, implausible verdict, correction and replaced original; offline, then synced', async ({
    task,
  }) => {
    // A retry starts from a vehicle with no readings: the timeline would show its first attempt's too.
    const { kodeId, vin } = perAttempt(task, [{ kodeId: 'KODE000002', vin: 'VF12T7VY4HJ685969' }, SPARE_VEHICLES[0]]);
    await recordElsewhere(elsewhere, 80_000, new Date(Date.now() - 2 * DAY).toISOString(), kodeId);
    const account = await registerPartner(e2e.portal.url, 'integrity');
    const context = await tablet.open();
    const page = await context.newPage();
    await signIn(page, e2e.portal.url, account);
    await waitForPrecache(page);

    // The lookup shows every garage's readings, never which garage.
    await findVehicle(page, kodeId, vin);
    // One reading: said in words, no chart (a line needs two points).
    await timeline(page).getByRole('listitem').first().waitFor();
    expect(await timeline(page).getByRole('img').count()).toBe(0);
    expect(await timelineLines(page)).toEqual([expect.stringMatching(/^80 000 km .*Premier relevé Autre garage$/)]);
    expect(await timeline(page).innerText()).not.toContain('elsewhere');

    // A lower reading is warned of, stored anyway, and judged implausible by the server.
    await insertConfirmingLowerReading(page, kodeId, 70_000);
    await expect.poll(async () => (await serverRepairs(e2e.portal.url, account)).length, SYNC_TIMEOUT).toBe(1);
    const [original] = await serverRepairs(e2e.portal.url, account);
    expect(original).toMatchObject({ odometer: 70_000, verdict: 'implausible', reasons: ['lower_than_previous'] });
    await openTab(page, 'Historique');
    await expect
      .poll(async () => (await rowWith(page, /^70 000 km$/))?.text ?? '', SYNC_TIMEOUT)
      .toMatch(/Invraisemblable\s+Inférieur au relevé précédent\s+Corrigeable jusqu’au/);
    await screenshot(page, 'odometer-implausible');

    // Offline: the correction waits in the outbox, the original shows it.
    await context.setOffline(true);
    await page.getByRole('button', { name: `Corriger le relevé ${kodeId}` }).click();
    const dialog = page.getByRole('dialog', { name: `Corriger la saisie ${kodeId}` });
    await dialog.getByLabel('Motif de la correction').selectOption({ label: 'Erreur de saisie' });
    await dialog.getByLabel('Kilométrage').fill('81000');
    await dialog
      .getByRole('checkbox', { name: 'Je confirme que les informations saisies sont exactes' })
      .press('Space');
    await dialog.getByRole('button', { name: 'Enregistrer la correction' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await rowWith(page, /^70 000 km$/))?.text ?? '')
      .toContain('Correction en attente d’envoi');
    expect((await rowWith(page, /^81 000 km$/))?.text).toContain('Correction : Erreur de saisie');

    // Offline, the timeline is the tablet's, with the queued correction in place of the original.
    await openTab(page, 'Nouvelle saisie');
    await findVehicle(page, kodeId, vin);
    await timeline(page)
      .getByRole('img', { name: /2 relevés/ })
      .waitFor();
    expect(await timelineLines(page)).toEqual([
      expect.stringMatching(/^81 000 km .*Plausible Votre garage En attente d’envoi$/),
      expect.stringMatching(/^80 000 km .*Autre garage$/),
    ]);
    // The warning counts the queued correction: 80,500 is 500 km below its 81,000.
    await insertConfirmingLowerReading(page, kodeId, 80_500);
    await screenshot(page, 'odometer-offline-queued');

    // Back online: each entry stored once, the original replaced, the verdicts those of the rules.
    await context.setOffline(false);
    await expect.poll(async () => (await serverRepairs(e2e.portal.url, account)).length, SYNC_TIMEOUT).toBe(3);
    const stored = await serverRepairs(e2e.portal.url, account);
    const correction = stored.find((repair) => repair.corrects === original?.id);
    expect(correction).toMatchObject({ odometer: 81_000, correction_reason: 'typo', verdict: 'plausible' });
    expect(correction?.recorded_at).toBe(original?.recorded_at);
    expect(stored.find((repair) => repair.id === original?.id)).toMatchObject({
      superseded_by: correction?.id,
      verdict: 'no_verdict',
    });
    expect(stored.find((repair) => repair.odometer === 80_500)).toMatchObject({
      verdict: 'implausible',
      reasons: ['lower_than_previous'],
    });

    await openTab(page, 'Historique');
    await expect
      .poll(async () => (await rowWith(page, /^70 000 km$/))?.text ?? '', SYNC_TIMEOUT)
      .toContain('Remplacée par une correction');
    await expect.poll(async () => (await rowWith(page, /^80 500 km$/))?.status, SYNC_TIMEOUT).toBe('synced');
    expect((await rowWith(page, /^80 500 km$/))?.text).toContain('Invraisemblable');
    await screenshot(page, 'odometer-corrected');
  });

  it('draws the timeline the way the page reads, readable in dark mode: French, then Arabic right to left', async () => {
    const kodeId = 'TEQUFH2RP7';
    // The first test's other garage records and reads its own readings here.
    const garage = elsewhere;
    await recordElsewhere(garage, 40_000, new Date(Date.now() - 20 * DAY).toISOString(), kodeId);
    await recordElsewhere(garage, 41_500, new Date(Date.now() - 10 * DAY).toISOString(), kodeId);
    await recordElsewhere(garage, 43_000, new Date(Date.now() - DAY).toISOString(), kodeId);
    const context = await tablet.open();
    const page = await context.newPage();
    await signIn(page, e2e.portal.url, garage);

    /** The chart's dots, oldest first: their centre across the page, and how they stand out from the card. */
    const dots = async () => {
      await lookUpVehicle(page, kodeId);
      const chart = page.locator('form [role="img"][aria-label]').filter({ has: page.locator('[data-verdict]') });
      // Three readings, or more when a retry recorded them again.
      await expect
        .poll(() => chart.locator('[data-verdict]').count(), { timeout: scaled(10_000) })
        .toBeGreaterThanOrEqual(3);
      return chart.evaluate((element) => {
        const luminance = (colour: string) => {
          const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
            const channel = Number(part) / 255;
            return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
        };
        let behind: Element | null = element;
        while (behind && getComputedStyle(behind).backgroundColor === 'rgba(0, 0, 0, 0)') behind = behind.parentElement;
        const background = luminance(getComputedStyle(behind ?? document.documentElement).backgroundColor);
        return Array.from(element.querySelectorAll('[data-verdict]')).map((dot) => {
          const box = dot.getBoundingClientRect();
          const ink = luminance(getComputedStyle(dot).borderTopColor);
          const [light, dark] = ink > background ? [ink, background] : [background, ink];
          return { x: box.x + box.width / 2, contrast: (light + 0.05) / (dark + 0.05) };
        });
      });
    };

    const french = await dots();
    expect(french[0]!.x).toBeLessThan(french.at(-1)!.x);

    await page.evaluate(() => localStorage.setItem('partner-language', 'ar'));
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.dir), { timeout: scaled(10_000) }).toBe('rtl');
    await setAppColorMode(page, 'dark');
    const arabic = await dots();
    // Time runs from right to left: the newest reading is the leftmost.
    expect(arabic[0]!.x).toBeGreaterThan(arabic.at(-1)!.x);
    // Each dot stands out from the card (WCAG's 3:1 for graphics).
    for (const dot of arabic) expect(dot.contrast).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'odometer-timeline-ar-dark');
  });
});
