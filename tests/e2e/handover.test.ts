/**
 * The hand-over file end to end (docs/ARCHITECTURE.md#the-hand-over-file): entries recorded offline on
 * one tablet are exported from the sending panel, imported on a second tablet signed in as the same
 * partner and sent from there; the first tablet, back online, sends the same keys and imports the same
 * file again: the server holds each entry once. A file edited after its export is refused on both
 * tablets; an entry the server holds with other values under its key stays on screen, both versions
 * shown, until the mechanic records it as a correction. A file whose entry differs from the one a tablet
 * holds under the same key adds nothing for it, and the panel lists it, field by field, whole in view.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newTabletContext, screenshot } from './support/browser';
import {
  type Account,
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
import { expectShownWhole, TABLET_SIZES } from './support/geometry';
import { exportFile, importFile, openPanel } from './support/handover';
import { recordRepairViaApi } from './support/pages';
import { useE2eSetting } from './support/setting';

const e2e = useE2eSetting();
const tablet = contextPerTest(() => e2e.browser);

interface HandoverFile {
  format: string;
  version: number;
  partner_id: string;
  seal?: string;
  entries: {
    idempotency_key: string;
    recorded_at: string;
    kode_id: string;
    odometer: number;
    repair_type_id: string;
    state: string;
    last_error?: unknown;
  }[];
}

type HandedOverEntry = HandoverFile['entries'][number];

/**
 * Stores a repair on the server under a handed-over entry's key with another odometer reading, as a
 * client that took an edited file (or an older portal) would: the server then holds another version.
 */
function storeUnderKey(account: Account, entry: HandedOverEntry, odometer: number): Promise<void> {
  const { kode_id, repair_type_id, recorded_at } = entry;
  return recordRepairViaApi(
    e2e.portal.url,
    account,
    { kode_id, repair_type_id, odometer, recorded_at },
    { idempotencyKey: entry.idempotency_key },
  );
}

/** A tablet signed in as a new partner, its worker installed with the app, then taken offline. */
async function offlineTablet(tag: string) {
  const account = await registerPartner(e2e.portal.url, tag);
  const context = await tablet.open();
  const page = await context.newPage();
  await signIn(page, e2e.portal.url, account);
  await waitForServiceWorker(page);
  await waitForPrecache(page);
  await context.setOffline(true);
  return { account, context, page };
}

describe('hand-over file', () => {
  it('carries offline entries to a second tablet; the server stores each once, whichever tablet sends it', async () => {
    const { account, context: first, page } = await offlineTablet('handover');
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
    expect(exported.version).toBe(2);
    expect(exported.seal).toMatch(/^[A-Za-z0-9_-]{43}$/);
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

describe('an edited hand-over file', () => {
  it('is refused on every tablet; an entry the server holds with other values stays on screen until corrected', async () => {
    // Tablet A, offline: two readings, exported.
    const { account, context: first, page } = await offlineTablet('edited');
    await recordRepair(page, { kodeId: 'KODE000001', odometer: 120_500, type: 'Vidange' });
    await recordRepair(page, { kodeId: 'KODE000002', odometer: 87_000, type: 'Vidange' });
    const file = await exportFile(page);
    const genuine = JSON.parse(await fs.readFile(file, 'utf8')) as HandoverFile;
    // Codes only: no browser's words ("Failed to fetch") travel in the file.
    expect(JSON.stringify(genuine)).not.toMatch(/Failed to fetch|message/);
    // The entry that found no network says so by its code (the other one waited behind it, untried).
    expect(genuine.entries[0]?.last_error).toEqual({ code: 0 });
    expect(genuine.entries.filter((entry) => entry.last_error && entry.last_error !== null)).toHaveLength(
      genuine.entries.filter((entry) => JSON.stringify(entry.last_error) === '{"code":0}').length,
    );

    // Someone raises the first reading by 1,000 km in a text editor, keeping its key.
    const [real] = genuine.entries;
    if (!real) throw new Error('no entry exported');
    const edited = path.join(path.dirname(file), 'edited.json');
    await fs.writeFile(
      edited,
      JSON.stringify(
        {
          ...genuine,
          entries: genuine.entries.map((entry, at) => (at === 0 ? { ...entry, odometer: 121_500 } : entry)),
        },
        null,
        2,
      ),
    );

    // Tablet B refuses it whole.
    const second = await newTabletContext(e2e.browser);
    const secondConsole = watchConsole(second);
    try {
      const other = await second.newPage();
      await signIn(other, e2e.portal.url, account);
      await importFile(other, edited);
      await other
        .getByText('Ce fichier a été modifié après son export : il ne peut pas être importé.')
        .first()
        .waitFor();
      await other.getByText('Import refusé, rien n’a été ajouté').first().waitFor();
      await screenshot(other, 'handover-edited-refused');
      await other.keyboard.press('Escape');
      await openTab(other, 'Historique');
      await other.getByText('Aucune saisie pour le moment').waitFor();
      expect(secondConsole.unexpected()).toEqual([]);
    } finally {
      await second.close();
    }
    expect(await serverRepairs(e2e.portal.url, account)).toEqual([]);

    // A tablet that holds the entries refuses it too, rather than counting them as already there.
    await importFile(page, edited);
    await page.getByText('Ce fichier a été modifié après son export : il ne peut pas être importé.').first().waitFor();
    expect(await page.getByText(/déjà présentes?/).count()).toBe(0);
    await page.keyboard.press('Escape');

    // The edited reading reaches the server under the real entry's key all the same (an older portal
    // took the file, or any other client): 121,500 km is stored first.
    await storeUnderKey(account, real, 121_500);
    const [forgedRepair] = await serverRepairs(e2e.portal.url, account);

    // Tablet A back online: its genuine entry is refused for the conflict, and stays on screen, both
    // versions side by side; the mechanic is told above every screen.
    tablet.allow(/the server responded with a status of 422/);
    await first.setOffline(false);
    await openTab(page, 'Historique');
    await expect.poll(async () => (await serverRepairs(e2e.portal.url, account)).length, SYNC_TIMEOUT).toBe(2);
    const refused = async () => (await historyRows(page)).find((row) => row.status === 'rejected');
    await expect.poll(async () => (await refused())?.odometer ?? '', SYNC_TIMEOUT).toMatch(/^120\s500 km$/);
    const alert = page.locator('[data-attention="rejected"]');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Cette saisie a déjà été enregistrée avec un contenu différent');

    // A refresh of the history (a reload) keeps it: the server's version does not take its place unseen.
    await page.reload();
    await openTab(page, 'Historique');
    await expect.poll(async () => (await refused())?.text ?? '', SYNC_TIMEOUT).toMatch(/121\s500 km/);
    const conflictRow = (await refused())!;
    expect(conflictRow.text).toContain('Le serveur a enregistré une autre version de cette saisie');
    expect(conflictRow.text).toMatch(
      /Kilométrage\s+Sur cette tablette :\s*120\s500 km\s+Sur le serveur :\s*121\s500 km/,
    );
    const rows = await historyRows(page);
    const plain = (text: string) => text.replace(/\s/g, ' ');
    expect(rows.map((row) => [row.kodeId, plain(row.odometer), row.status]).sort()).toEqual([
      ['KODE000001', '120 500 km', 'rejected'],
      ['KODE000001', '121 500 km', 'synced'],
      ['KODE000002', '87 000 km', 'synced'],
    ]);
    expect(rows.find((row) => plain(row.odometer) === '121 500 km')?.text).toContain(
      'Autre version sur cette tablette',
    );
    await screenshot(page, 'handover-conflict-landscape');
    await page.setViewportSize({ width: 800, height: 1280 });
    await expect.poll(async () => page.locator('ul > li[data-status="rejected"]').count()).toBe(1);
    await screenshot(page, 'handover-conflict-portrait');
    await page.setViewportSize({ width: 1024, height: 768 });

    // Recorded as a correction of the stored repair, with this tablet's values.
    await page.getByRole('button', { name: 'Enregistrer la saisie KODE000001 comme correction' }).click();
    const dialog = page.getByRole('dialog', { name: 'Corriger la saisie KODE000001' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Kilométrage').inputValue()).toMatch(/^120\s?500$/);
    await dialog.getByLabel('Motif de la correction').selectOption({ label: 'Erreur de saisie' });
    await dialog
      .getByRole('checkbox', { name: 'Je confirme que les informations saisies sont exactes' })
      .press('Space');
    await dialog.getByRole('button', { name: 'Enregistrer la correction' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await serverRepairs(e2e.portal.url, account)).length, SYNC_TIMEOUT).toBe(3);
    const stored = await serverRepairs(e2e.portal.url, account);
    const correction = stored.find((repair) => repair.corrects === forgedRepair?.id);
    expect(correction).toMatchObject({ odometer: 120_500, correction_reason: 'typo', recorded_at: real.recorded_at });
    expect(stored.find((repair) => repair.id === forgedRepair?.id)?.superseded_by).toBe(correction?.id);
    await expect
      .poll(async () => (await historyRows(page)).map((row) => row.status).sort(), SYNC_TIMEOUT)
      .toEqual(['synced', 'synced', 'synced']);
    await alert.waitFor({ state: 'detached' });
  });
});

describe("a file with an entry that differs from this tablet's", () => {
  it('lists the differing entry whole in view at every tablet size, once imported', async () => {
    const { account, page } = await offlineTablet('differs');
    await recordRepair(page, { kodeId: 'KODE000001', odometer: 120_500, type: 'Vidange' });
    const file = await exportFile(page);
    const [real] = (JSON.parse(await fs.readFile(file, 'utf8')) as HandoverFile).entries;
    if (!real) throw new Error('no entry exported');

    // The server holds another version under the entry's key; a second tablet has it in its history.
    await storeUnderKey(account, real, 121_500);
    const second = await tablet.open();
    const other = await second.newPage();
    await signIn(other, e2e.portal.url, account);
    await openTab(other, 'Historique');
    await expect
      .poll(async () => (await historyRows(other)).map((row) => row.status), SYNC_TIMEOUT)
      .toEqual(['synced']);

    for (const size of TABLET_SIZES) {
      await other.setViewportSize(size);
      await importFile(other, file);
      const listed = other.locator('[data-import-conflicts]');
      await listed.waitFor();
      expect(await listed.innerText()).toMatch(
        /1 saisie du fichier diffère de celle de cette tablette : elle n’a pas été importée[\s\S]*KODE000001[\s\S]*Dans le fichier/,
      );
      await expectShownWhole(other, listed, `the differing entry at ${size.width}×${size.height}`);
      await screenshot(other, `handover-differences-${size.width}x${size.height}`);
      await other.keyboard.press('Escape');
      await other.getByRole('dialog', { name: 'Envoi des saisies' }).waitFor({ state: 'hidden' });
    }
    // Nothing of it was added: the history still shows the server's version alone, nothing waiting.
    const rows = await historyRows(other);
    expect(rows.map((row) => [row.status, row.odometer.replace(/\s/g, ' ')])).toEqual([['synced', '121 500 km']]);
  });
});
