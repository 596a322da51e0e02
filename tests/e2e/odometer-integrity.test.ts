/**
 * Odometer integrity in Chromium against the real portal (docs/PRODUCT.md#odometer-plausibility): a
 * lookup shows the vehicle's timeline with another garage's reading; a lower reading is warned of
 * before Insert, stored anyway and judged implausible; the mechanic corrects it within the window and
 * the original shows replaced. Offline, the timeline stays, the warning counts queued entries, and a
 * correction waits in the outbox; back online, the server holds each once with consistent verdicts.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
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

const e2e = useE2eSetting();
const tablet = contextPerTest(() => e2e.browser);

const KODE = 'KODE000002';
const VIN = 'VF12T7VY4HJ685969';
const DAY = 86_400_000;

/** Another garage's reading, stored through the API. */
async function recordElsewhere(account: Account, odometer: number, recordedAt: string) {
  const response = await fetch(`${e2e.portal.url}/api/partner/repairs`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${account.token}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
      'x-origin': e2e.portal.url,
    },
    body: JSON.stringify({
      kode_id: KODE,
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
async function insertConfirmingLowerReading(page: Page, odometer: number) {
  const fields = repairForm(page);
  await fillRepairForm(page, { kodeId: KODE, odometer, type: 'Vidange' });
  await fields.insert.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'Vérifiez le kilométrage' });
  await dialog.waitFor();
  expect(await dialog.innerText()).toContain(
    'Le kilométrage saisi est inférieur au dernier relevé connu pour ce véhicule.',
  );
  await dialog.getByRole('button', { name: 'Confirmer le kilométrage' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(() => fields.kodeId.inputValue(), { timeout: 15_000 }).toBe('');
}

const rowWith = async (page: Page, km: RegExp) =>
  (await historyRows(page)).find((row) => km.test(row.odometer.replace(/\s/g, ' ')));

describe('odometer integrity', () => {
  it('timeline, warning, implausible verdict, correction and replaced original; offline, then synced', async () => {
    const elsewhere = await registerPartner(e2e.portal.url, 'elsewhere');
    await recordElsewhere(elsewhere, 80_000, new Date(Date.now() - 2 * DAY).toISOString());
    const account = await registerPartner(e2e.portal.url, 'integrity');
    const context = await tablet.open();
    const page = await context.newPage();
    await signIn(page, e2e.portal.url, account);
    await waitForPrecache(page);

    // The lookup shows every garage's readings, never which garage.
    await findVehicle(page, KODE, VIN);
    await timeline(page)
      .getByRole('img', { name: /Évolution du compteur : 1 relevés/ })
      .waitFor();
    expect(await timelineLines(page)).toEqual([expect.stringMatching(/^80 000 km .*Sans avis Autre garage$/)]);
    expect(await timeline(page).innerText()).not.toContain('elsewhere');

    // A lower reading is warned of, stored anyway, and judged implausible by the server.
    await insertConfirmingLowerReading(page, 70_000);
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
    await page.getByRole('button', { name: `Corriger le relevé ${KODE}` }).click();
    const dialog = page.getByRole('dialog', { name: `Corriger la saisie ${KODE}` });
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
    await findVehicle(page, KODE, VIN);
    await timeline(page)
      .getByRole('img', { name: /2 relevés/ })
      .waitFor();
    expect(await timelineLines(page)).toEqual([
      expect.stringMatching(/^81 000 km .*Plausible Votre garage En attente d’envoi$/),
      expect.stringMatching(/^80 000 km .*Autre garage$/),
    ]);
    // The warning counts the queued correction: 80,500 is 500 km below its 81,000.
    await insertConfirmingLowerReading(page, 80_500);
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
});
