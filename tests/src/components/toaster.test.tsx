import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { LanguageSwitcher } from '../../../src/components/LanguageSwitcher';
import { notify, showToast } from '../../../src/components/ui/toaster';
import { notifyEntrySaved } from '../../../src/features/dashboard/notify-saved';
import { i18n } from '../../../src/lib/i18n';
import { toaster, TOAST_MAX } from '../../../src/components/ui/toaster-view';
import { renderWithApp } from '../render';

/** The titles of the toasts on screen, top to bottom. */
function shownTitles(): string[] {
  return [...document.querySelectorAll('[data-scope="toast"][data-part="title"]')].map(
    (title) => title.textContent ?? '',
  );
}

describe('toasts', () => {
  afterEach(() => toaster.remove());

  it('are shown in order, three at most: the next one waits for a place', async () => {
    await renderWithApp(<p>Tableau de bord</p>);
    notify.success('Opération réussie');
    notify.error('Échec de l’opération', 'Véhicule introuvable');
    notify.info('Aucune modification à enregistrer');
    notify.warning('Hors ligne');

    // Newest on top; the fourth waits for a place.
    await waitFor(() =>
      expect(shownTitles()).toEqual(['Aucune modification à enregistrer', 'Échec de l’opération', 'Opération réussie']),
    );
    expect(toaster.getVisibleToasts()).toHaveLength(TOAST_MAX);

    const first = toaster.getVisibleToasts().find((toast) => toast.title === 'Opération réussie');
    toaster.dismiss(first?.id);
    await waitFor(() =>
      expect(shownTitles()).toEqual(['Hors ligne', 'Aucune modification à enregistrer', 'Échec de l’opération']),
    );
  });

  it('shows a toast asked for while their code loads, never one taken away meanwhile', async () => {
    await renderWithApp(<p>Tableau de bord</p>);
    const takeAway = showToast({ type: 'info', title: 'Retiré aussitôt' });
    takeAway();
    notify.info('Montré');
    await waitFor(() => expect(shownTitles()).toEqual(['Montré']));
  });

  it('speaks the language the mechanic switches to while it is shown', async () => {
    await renderWithApp(<LanguageSwitcher />);
    notifyEntrySaved(i18n, 'stored');
    await waitFor(() => expect(shownTitles()).toEqual(['Opération réussie']));
    await userEvent.click(screen.getByRole('button', { name: 'Langue : Français' }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'العربية' }));
    await waitFor(() => expect(shownTitles()).toEqual(['تمت العملية بنجاح']));
    expect(screen.getByText('تم تسجيل الإدخال.')).toBeTruthy();
  });

  it('can be closed by the mechanic, with a label in the active language', async () => {
    await renderWithApp(<p>Tableau de bord</p>, { locale: 'en' });
    notify.error('Operation failed');
    const close = await screen.findByRole('button', { name: 'Close' });
    close.click();
    await waitFor(() => expect(screen.queryByText('Operation failed')).toBeNull());
  });
});
