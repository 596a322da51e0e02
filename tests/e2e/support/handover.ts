/** The sending panel's hand-over file, as a mechanic uses it: export to a file of the test's own, import one. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';

export async function openPanel(page: Page) {
  await page.getByRole('button', { name: /détails de l'envoi/ }).click();
  const panel = page.getByRole('dialog', { name: 'Envoi des saisies' });
  await panel.waitFor();
  return panel;
}

/** Exports the tablet's entries from the sending panel into a file of the test's own; returns its path. */
export async function exportFile(page: Page): Promise<string> {
  const panel = await openPanel(page);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Exporter les saisies' }).click(),
  ]);
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'handover-')), download.suggestedFilename());
  await download.saveAs(file);
  await page.keyboard.press('Escape');
  return file;
}

export async function importFile(page: Page, file: string) {
  const panel = await openPanel(page);
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    panel.getByRole('button', { name: 'Importer un fichier' }).click(),
  ]);
  await chooser.setFiles(file);
}
