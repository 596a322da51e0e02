import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LanguageSwitcher } from '../../../src/components/LanguageSwitcher';
import { renderWithApp } from '../render';

describe('language switcher', () => {
  it('switches to Arabic, right to left, and remembers the choice', async () => {
    await renderWithApp(<LanguageSwitcher />);
    expect(document.documentElement.dir).toBe('ltr');
    await userEvent.click(screen.getByRole('button', { name: 'Langue : Français' }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'العربية' }));
    await screen.findByRole('button', { name: /العربية/ });
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
    expect(localStorage.getItem('partner-language')).toBe('ar');
  });
});
