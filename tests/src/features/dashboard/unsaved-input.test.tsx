/**
 * A new version is never applied over unsaved input (docs/ARCHITECTURE.md#the-offline-model-in-practice): the dashboard form tells
 * the update prompt when it holds anything, and the prompt holds the update until it is cleared.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { EMPTY_REPAIR_FORM, hasRepairInput } from '../../../../src/features/dashboard/validation';
import { getSyncEngine } from '../../../../src/lib/entries';
import { hasUnsavedInput } from '../../../../src/lib/unsaved';
import { renderWithApp } from '../../render';
import { FakeApi, resetPortal, signIn } from './support';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

// A new version is waiting: the prompt is on screen (it is part of the app's providers).
const applyUpdate = vi.fn();
vi.mock('../../../../src/lib/pwa', () => ({ useUpdateWaiting: () => true, applyUpdate: () => applyUpdate() }));

const api = new FakeApi();

beforeEach(async () => {
  await resetPortal();
  api.reset();
  api.install();
  applyUpdate.mockClear();
  await signIn();
});

afterEach(async () => {
  await getSyncEngine().idle();
});

describe('hasRepairInput', () => {
  it('is false for the empty form and true as soon as any field holds something', () => {
    expect(hasRepairInput(EMPTY_REPAIR_FORM)).toBe(false);
    expect(hasRepairInput({ ...EMPTY_REPAIR_FORM, kode_id: 'K' })).toBe(true);
    expect(hasRepairInput({ ...EMPTY_REPAIR_FORM, odometer: '1' })).toBe(true);
    expect(hasRepairInput({ ...EMPTY_REPAIR_FORM, repair_type_id: 'rt-oil' })).toBe(true);
    expect(hasRepairInput({ ...EMPTY_REPAIR_FORM, consented: true })).toBe(true);
  });
});

describe('the update prompt and the dashboard form', () => {
  it(
    'holds the update while the form has input and offers it again once the form is cleared or saved',
    { timeout: 30_000 },
    async () => {
      const user = userEvent.setup();
      await renderWithApp(<DashboardPage />);
      await screen.findByRole('option', { name: 'Vidange' });
      const update = () => screen.getByRole('button', { name: 'Mettre à jour' });
      screen.getByText('Une nouvelle version du portail est disponible.');
      expect(update().hasAttribute('disabled')).toBe(false);
      expect(hasUnsavedInput()).toBe(false);

      const kode = screen.getByLabelText(/Identifiant du véhicule/);
      await user.type(kode, 'KODE000001');
      await waitFor(() => expect(update().hasAttribute('disabled')).toBe(true));
      expect(hasUnsavedInput()).toBe(true);
      screen.getByText('Terminez ou videz la saisie en cours pour mettre à jour.');
      await user.click(update());
      expect(applyUpdate).not.toHaveBeenCalled();

      await user.clear(kode);
      await waitFor(() => expect(update().hasAttribute('disabled')).toBe(false));
      expect(screen.queryByText('Terminez ou videz la saisie en cours pour mettre à jour.')).toBeNull();

      // A saved entry resets the form: nothing is left to lose.
      await user.type(kode, 'KODE000001');
      await user.selectOptions(screen.getByLabelText(/Type de panne/), 'rt-oil');
      await user.type(screen.getByLabelText(/Kilométrage/), '120000');
      await user.click(screen.getByRole('checkbox', { name: /Je confirme/ }));
      expect(hasUnsavedInput()).toBe(true);
      await user.click(screen.getByRole('button', { name: 'Insérer' }));
      await waitFor(() => expect(api.storedCount).toBe(1));
      await waitFor(() => expect(update().hasAttribute('disabled')).toBe(false));
      expect(hasUnsavedInput()).toBe(false);
      await user.click(update());
      expect(applyUpdate).toHaveBeenCalledTimes(1);
    },
  );
});
