/**
 * The hand-over file end to end (docs/ARCHITECTURE.md#the-hand-over-file): entries recorded offline on
 * one tablet are exported from the sending panel, imported on a second tablet signed in as the same
 * partner and sent from there; the first tablet, back online, sends the same keys and imports the same
 * file again: the server holds each entry once.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newTabletContext, screenshot } from './support/browser';
import {
  contextPerTest,
  historyRows,
  openTab,
  recordRepair,
  registerPartner,
  serverRepairs,
  signIn,
  SYNC_TIMEOUT,
  waitForPrecache,
  waitForServiceWorker,
  watchConsole,
} from './support/offline';
import { useE2eSetting } from './support/setting';

const e2e = useE2eSetting();
const tablet = contextPerTest(() => e2e.browser);

interface HandoverFile {
  format: string;
  version: number;
  partner_id: string;
  entries: { idempotency_key: string; recorded_at: string; kode_id: string; odometer: number; state: string }[];
}

async function openPanel(page: Page) {
  await page.getByRole('button', { name: /détails de l'envoi/ }).click();
  const panel = page.getByRole('dialog', { name: 'Envoi des saisies' });
  await panel.waitFor();
  return panel;
}

async function importFile(page: Page, file: string) {
  const panel = await openPanel(page);
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    panel.getByRole('button', { name: 'Importer un fichier' }).click(),
  ]);
  await chooser.setFiles(file);
}

describe('hand-over file', () => {
  it('carries offline entries to a second tablet; the server stores each once, whichever tablet sends it', async () => {
    const account = await registerPartner(e2e.portal.url, 'handover');
    const first = await tablet.open();
    const page = await first.newPage();
    await signIn(page, e2e.portal.url, account);
    await waitForServiceWorker(page);
    await waitForPrecache(page);

    await first.setOffline(true);
    await recordRepair(page, { kodeId: 'KODE000001', odometer: 120_500, type: 'Vidange' });
    await recordRepair(page, { kodeId: 'KODE000002', odometer: 87_000, type: 'Vidange' });

    const panel = await openPanel(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Exporter les saisies' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^kode-garage-garage-handover-\d+-\d{4}-\d{2}-\d{2}\.json$/);
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'handover-')), download.suggestedFilename());
    await download.saveAs(file);
    const exported = JSON.parse(await fs.readFile(file, 'utf8')) as HandoverFile;
    expect(exported.format).toBe('kode-garage-outbox');
    expect(exported.version).toBe(1);
    expect(exported.entries.map((entry) => [entry.kode_id, entry.odometer, entry.state])).toEqual([
      ['KODE000001', 120_500, 'pending'],
      ['KODE000002', 87_000, 'pending'],
    ]);
    await page.keyboard.press('Escape');
    expect(await serverRepairs(e2e.portal.url, account)).toEqual([]);

    // A second tablet, online, same partner.
    const second = await newTabletContext(e2e.browser);
    const secondConsole = watchConsole(second);
    try {
      const other = await second.newPage();
      await signIn(other, e2e.portal.url, account);
      await importFile(other, file);
      await other.getByText('2 saisies ajoutées, 0 déjà présente.').first().waitFor();
      await expect.poll(async () => (await serverRepairs(e2e.portal.url, account)).length, SYNC_TIMEOUT).toBe(2);
      const stored = await serverRepairs(e2e.portal.url, account);
      expect(stored.map((repair) => [repair.vehicle.kode_id, repair.odometer, repair.recorded_at]).sort()).toEqual(
        exported.entries.map((entry) => [entry.kode_id, entry.odometer, entry.recorded_at]).sort(),
      );
      await screenshot(other, 'handover-imported');
      expect(secondConsole.unexpected()).toEqual([]);
    } finally {
      await second.close();
    }

    // The first tablet comes back online: it sends the same keys, then imports the same file again.
    await first.setOffline(false);
    await openTab(page, 'Historique');
    await expect
      .poll(async () => (await historyRows(page)).map((row) => row.status), SYNC_TIMEOUT)
      .toEqual(['synced', 'synced']);
    await importFile(page, file);
    await page.getByText('0 saisie ajoutée, 2 déjà présentes.').first().waitFor();
    await page.keyboard.press('Escape');
    expect(await historyRows(page)).toHaveLength(2);
    const stored = await serverRepairs(e2e.portal.url, account);
    expect(stored).toHaveLength(2);
    expect(new Set(stored.map((repair) => repair.id)).size).toBe(2);
  });
});
