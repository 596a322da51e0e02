/**
 * The form's 'Photo du compteur' (docs/PRODUCT.md#odometer-photo) in jsdom, which has no camera: the
 * tablet's own picker is what opens. The encoder (a worker and a canvas, which jsdom lacks) is replaced
 * by one that answers a made-small photo; Chromium runs the real one (tests/e2e/photos.test.ts).
 */
import { Blob as NodeBlob } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Photo, VehicleReading } from '../../../../contract';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { db } from '../../../../src/lib/db';
import { encodePhoto, PhotoEncodeError } from '../../../../src/lib/photos/encode';
import { hasUnsavedInput } from '../../../../src/lib/unsaved';
import { renderWithApp } from '../../render';
import { expectToast } from '../../support/api';
import { ok, useDashboardSetting } from './support';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

vi.mock('../../../../src/lib/photos/encode', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/photos/encode')>();
  return { ...actual, encodePhoto: vi.fn() };
});

const api = useDashboardSetting();

// jsdom has no object URLs; the preview only needs one to point at.
const objectUrls = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
beforeAll(() => {
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
});
afterAll(() => {
  URL.createObjectURL = objectUrls.create;
  URL.revokeObjectURL = objectUrls.revoke;
});

/** A photo as the encoder makes it: Node's Blob, which IndexedDB's structured clone keeps (jsdom's does not). */
const ENCODED = {
  blob: new NodeBlob(['small webp'], { type: 'image/webp' }) as unknown as Blob,
  type: 'image/webp' as const,
  width: 1600,
  height: 1200,
  preview: new NodeBlob(['smaller webp'], { type: 'image/webp' }) as unknown as Blob,
};

const uploads: string[] = [];
beforeEach(async () => {
  await db.photos.clear();
  uploads.length = 0;
  vi.mocked(encodePhoto).mockReset().mockResolvedValue(ENCODED);
  api.on('PUT /repairs/repair-1/photo', (_options, path) => {
    uploads.push(path);
    return ok<Photo>({ url: `/api/partner${path}`, bytes: 10, width: 1600, height: 1200 }, 201);
  });
});

async function renderDashboard() {
  const user = userEvent.setup();
  const view = await renderWithApp(<DashboardPage />);
  await screen.findByRole('option', { name: 'Vidange' });
  return { user, view };
}

/** The field's group, once its code has loaded. */
const photoField = () => screen.findByRole('group', { name: /Photo du compteur/ });
const fileInput = (root: HTMLElement) => root.querySelector<HTMLInputElement>('input[type="file"]')!;

async function fillValid(user: ReturnType<typeof userEvent.setup>, odometer = '120000') {
  await user.type(screen.getByLabelText(/Identifiant du véhicule/), 'kode000001');
  await user.selectOptions(screen.getByLabelText(/Type de panne/), 'rt-oil');
  await user.type(screen.getByLabelText(/Kilométrage/), odometer);
  await user.click(screen.getByRole('checkbox', { name: /Je confirme/ }));
}

async function takePhoto(user: ReturnType<typeof userEvent.setup>, group: HTMLElement) {
  const input = fileInput(group);
  expect(input.accept).toBe('image/*');
  expect(input.getAttribute('capture')).toBe('environment');
  await user.click(within(group).getByRole('button', { name: 'Photographier le compteur' }));
  await user.upload(input, new File(['full size jpeg'], 'compteur.jpg', { type: 'image/jpeg' }));
}

describe("the odometer's photo in the form", () => {
  it('is optional, made small, previewed, then written with the entry and sent after it', async () => {
    const { user, view } = await renderDashboard();
    const group = await photoField();
    expect(group.textContent).toContain('(facultative)');
    await fillValid(user);
    await takePhoto(user, group);
    expect(vi.mocked(encodePhoto)).toHaveBeenCalledWith(expect.objectContaining({ name: 'compteur.jpg' }));
    await within(group).findByRole('button', { name: 'Reprendre' });
    expect(view.container.querySelector('[data-photo-preview]')?.getAttribute('src')).toBe('blob:preview');

    await user.click(screen.getByRole('button', { name: 'Insérer' }));
    await expectToast({ type: 'success', title: 'Opération réussie', description: 'La saisie a été enregistrée.' });
    await waitFor(() => expect(uploads).toEqual(['/repairs/repair-1/photo']));
    await waitFor(async () => expect(await db.photos.count()).toBe(0));
    expect((await db.history.get('repair-1'))?.photo).toMatchObject({ width: 1600, height: 1200 });
    // The form is ready for the next vehicle, without the photo.
    expect(view.container.querySelector('[data-photo-preview]')).toBeNull();
    expect(within(await photoField()).getByRole('button', { name: 'Photographier le compteur' })).toBeTruthy();
  });

  it('removed, it is not sent', async () => {
    const { user } = await renderDashboard();
    const group = await photoField();
    await fillValid(user);
    await takePhoto(user, group);
    await user.click(await within(group).findByRole('button', { name: 'Retirer la photo' }));
    await within(group).findByRole('button', { name: 'Photographier le compteur' });
    await user.click(screen.getByRole('button', { name: 'Insérer' }));
    await expectToast({ type: 'success', title: 'Opération réussie', description: 'La saisie a été enregistrée.' });
    await waitFor(() => expect(api.posted).toHaveLength(1));
    expect(uploads).toEqual([]);
    expect(await db.photos.count()).toBe(0);
  });

  it('is input not saved yet on its own: a new version of the portal waits while it is kept', async () => {
    const { user } = await renderDashboard();
    const group = await photoField();
    expect(hasUnsavedInput()).toBe(false);
    await takePhoto(user, group);
    await within(group).findByRole('button', { name: 'Reprendre' });
    expect(hasUnsavedInput()).toBe(true);
    await user.click(within(group).getByRole('button', { name: 'Retirer la photo' }));
    await waitFor(() => expect(hasUnsavedInput()).toBe(false));
  });

  it('says so when the picture cannot be read, and keeps the field open for another', async () => {
    vi.mocked(encodePhoto).mockRejectedValue(new PhotoEncodeError('unreadable'));
    const { user } = await renderDashboard();
    const group = await photoField();
    await takePhoto(user, group);
    expect((await within(group).findByRole('alert')).textContent).toBe(
      'Cette image ne peut pas être lue. Prenez une autre photo.',
    );
    expect(within(group).getByRole('button', { name: 'Photographier le compteur' })).toBeTruthy();
  });

  it('is asked for when the reading must be confirmed, and joined to the entry from there', async () => {
    const readings: VehicleReading[] = [
      {
        odometer: 150_000,
        recorded_at: new Date(Date.now() - 86_400_000).toISOString(),
        verdict: 'plausible',
        reasons: [],
        own: false,
      },
    ];
    api.on('GET /vehicles/KODE000001/readings', () => ok(readings));
    const { user } = await renderDashboard();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Rechercher' }));
    // The vehicle's one reading, listed (a single reading draws no chart).
    await within(await screen.findByRole('list', { name: 'Derniers relevés' })).findByRole('listitem');
    await user.click(screen.getByRole('button', { name: 'Insérer' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Vérifiez le kilométrage' });
    await within(dialog).findByText("Une photo du compteur prouve ce relevé s'il est contesté.");
    await takePhoto(user, await within(dialog).findByRole('group', { name: /Photo du compteur/ }));
    await within(dialog).findByText('La photo du compteur sera jointe à ce relevé.');
    await user.click(within(dialog).getByRole('button', { name: 'Confirmer le kilométrage' }));
    await expectToast({ type: 'success', title: 'Opération réussie', description: 'La saisie a été enregistrée.' });
    await waitFor(() => expect(uploads).toEqual(['/repairs/repair-1/photo']));
  });
});
