/**
 * The storage section's photo line (docs/ARCHITECTURE.md#odometer-photos): what the odometer photos take
 * on the tablet, and dropping those of entries the server already holds, never those still queued.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { PhotosLine } from '../../../../src/features/sync/components/PhotosLine';
import { db } from '../../../../src/lib/db';
import { photoRow } from '../../../support/photos';
import { renderWithApp } from '../../render';
import { expectToast } from '../../support/api';
import { partner, queuedEntry, resetPortal, signIn } from '../dashboard/support';

const QUEUED = '00000000-0000-4000-8000-0000000000a1';
const SENT = '00000000-0000-4000-8000-0000000000a2';
const SENT_TOO = '00000000-0000-4000-8000-0000000000a3';
const KB = 1024;

const photo = (entryKey: string, bytes: number, partnerId = partner.id) => photoRow(entryKey, partnerId, { bytes });

async function renderLine() {
  // The line waits for the photo's words (a catalog of their own): rendered in an awaited act.
  await act(() => renderWithApp(<PhotosLine />));
}

beforeEach(async () => {
  await resetPortal();
  await signIn();
});

describe("the storage's photo line", () => {
  it('says nothing while the tablet holds no photo', async () => {
    await db.photos.add(photo(SENT, 100 * KB, 'another-partner'));
    await renderLine();
    await waitFor(() => expect(document.querySelector('[data-photo-storage]')).toBeNull());
    expect(screen.queryByText(/Photos du compteur sur la tablette/)).toBeNull();
  });

  it('counts every photo, offers only those of sent entries, and drops them after confirmation', async () => {
    await db.outbox.add(queuedEntry(QUEUED, 1, 'queued', '2026-11-20T08:15:00.000Z', 120_500));
    await db.photos.bulkAdd([photo(QUEUED, 150 * KB), photo(SENT, 100 * KB), photo(SENT_TOO, 50 * KB)]);
    await renderLine();
    const line = (await screen.findByText(/Photos du compteur sur la tablette/)).closest('[data-photo-storage]')!;
    expect(line.textContent).toMatch(/Photos du compteur sur la tablette : 3 \(300\s?ko\)/);
    const user = userEvent.setup();
    await user.click(
      within(line as HTMLElement).getByRole('button', {
        name: /Supprimer les photos des saisies déjà envoyées \(2, 150\s?ko\)/,
      }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Supprimer ces photos ?' });
    expect(dialog.textContent).toContain('elles ne pourront plus servir de preuve');
    await user.click(within(dialog).getByRole('button', { name: 'Supprimer les photos' }));
    await expectToast({ type: 'success', title: 'Photos supprimées de la tablette : 2' });
    expect((await db.photos.toArray()).map((row) => row.id)).toEqual([QUEUED]);
    await waitFor(() => expect(screen.getByText(/Photos du compteur sur la tablette : 1/)).toBeTruthy());
    expect(screen.queryByRole('button', { name: /Supprimer les photos des saisies/ })).toBeNull();
  });

  it('keeps them all when the mechanic changes their mind', async () => {
    await db.photos.add(photo(SENT, 100 * KB));
    await renderLine();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Supprimer les photos des saisies déjà envoyées/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Supprimer ces photos ?' });
    await user.click(within(dialog).getByRole('button', { name: 'Garder les photos' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await db.photos.count()).toBe(1);
  });
});
