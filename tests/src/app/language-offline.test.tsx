/**
 * A language whose catalog cannot be fetched (offline before the service worker had it): choosing it
 * leaves the page in the current language with a message and Retry; starting with it stored starts
 * in French rather than not at all, and keeps the choice for the next start.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LanguageSwitcher } from '../../../src/components/LanguageSwitcher';
import { i18n, initI18n, LANGUAGE_STORAGE_KEY } from '../../../src/lib/i18n';
import { renderWithApp } from '../render';
import { expectVisible } from '../support/dom';

vi.mock('../../../src/locales/ar/messages.po', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

afterEach(() => localStorage.clear());

describe('an Arabic catalog that cannot be fetched', () => {
  it('leaves the page in French and offers Retry when Arabic is chosen', async () => {
    await renderWithApp(<LanguageSwitcher />);
    await userEvent.click(screen.getByRole('button', { name: 'Langue : Français' }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'العربية' }));

    const toast = (await screen.findByText("Cette partie du portail n'a pas pu être chargée.")).closest(
      '[data-scope="toast"][data-part="root"]',
    );
    expect(toast).not.toBeNull();
    expectVisible(within(toast as HTMLElement).getByRole('button', { name: 'Réessayer' }));
    expect(document.documentElement.lang).toBe('fr');
    expect(document.documentElement.dir).toBe('ltr');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).not.toBe('ar');
  });

  it('starts in French when Arabic is the stored choice, and keeps the choice', async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'ar');
    await expect(initI18n()).resolves.toBeUndefined();
    expect(i18n.locale).toBe('fr');
    expect(document.documentElement.dir).toBe('ltr');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('ar');
  });
});
