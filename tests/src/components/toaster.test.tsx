import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { notify, toaster, TOAST_MAX } from '../../../src/components/ui/toaster';
import { renderWithApp } from '../render';

describe('toasts', () => {
  afterEach(() => toaster.remove());

  it('are shown in order, three at most: the next one waits for a place', async () => {
    await renderWithApp(<p>Tableau de bord</p>);
    notify.success('Opération réussie');
    notify.error('Échec de l’opération', 'Véhicule introuvable');
    notify.info('Aucune modification à enregistrer');
    notify.warning('Hors ligne');

    expect(await screen.findByText('Véhicule introuvable')).not.toBeNull();
    expect(screen.getByText('Opération réussie')).not.toBeNull();
    expect(screen.getByText('Aucune modification à enregistrer')).not.toBeNull();
    expect(screen.queryByText('Hors ligne')).toBeNull();
    expect(toaster.getVisibleToasts()).toHaveLength(TOAST_MAX);

    const first = toaster.getVisibleToasts().find((toast) => toast.title === 'Opération réussie');
    toaster.dismiss(first?.id);
    expect(await screen.findByText('Hors ligne')).not.toBeNull();
  });

  it('can be closed by the mechanic, with a label in the active language', async () => {
    await renderWithApp(<p>Tableau de bord</p>, { locale: 'en' });
    notify.error('Operation failed');
    const close = await screen.findByRole('button', { name: 'Close' });
    close.click();
    await waitFor(() => expect(screen.queryByText('Operation failed')).toBeNull());
  });
});
