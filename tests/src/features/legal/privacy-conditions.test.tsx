import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../../../contract';
import { apiRequest } from '../../../../src/lib/api/client';
import { establishSession, logout } from '../../../../src/lib/session';
import PrivacyConditionsPage from '../../../../src/features/legal/pages/PrivacyConditionsPage';
import { renderWithApp } from '../../render';
import { clearToasts, demoUser, failed, ok, scripted } from '../../support/api';
import { expectVisible } from '../../support/dom';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../src/lib/api/client')>()),
  apiRequest: vi.fn(),
}));

const api = vi.mocked(apiRequest);

const SETTINGS: Settings = {
  partner_conditions: '<h2>Conditions</h2><p>Texte en français.</p><ul><li>Premier point</li></ul>',
  partner_conditions_ar: '<h2>الشروط</h2><p>نص بالعربية.</p>',
  partner_conditions_en: null,
};

declare global {
  interface Window {
    pwned?: boolean;
  }
}

function answer(settings: Settings) {
  api.mockImplementation(
    scripted({ 'public GET /settings': () => ok(settings), 'auth POST /logout/partner': () => ok(null) }),
  );
}

const conditions = () => screen.findByTestId('privacy-conditions');

beforeEach(() => {
  api.mockReset();
  delete window.pwned;
});
afterEach(() => clearToasts());

describe('privacy conditions page', () => {
  it('shows the French text as rich content', async () => {
    answer(SETTINGS);
    await renderWithApp(<PrivacyConditionsPage />, { path: '/privacy-conditions' });
    const body = await conditions();
    expect(body.querySelector('h2')?.textContent).toBe('Conditions');
    expect(body.querySelector('ul li')?.textContent).toBe('Premier point');
    expect(api).toHaveBeenCalledWith('public', '/settings', expect.anything());
  });

  it('sanitises the HTML: no script, no event handler, no javascript: link', async () => {
    answer({
      ...SETTINGS,
      partner_conditions:
        '<h2>Conditions</h2><script>window.pwned = true</script>' +
        '<img src="x" onerror="window.pwned = true"><p onclick="window.pwned = true">Texte</p>' +
        '<a href="javascript:window.pwned=true">piège</a><a href="https://example.dz/cgu">CGU</a>' +
        '<iframe src="https://evil.test"></iframe><p style="position:fixed">Style</p>',
    });
    await renderWithApp(<PrivacyConditionsPage />, { path: '/privacy-conditions' });
    const body = await conditions();
    expect(body.querySelector('h2')?.textContent).toBe('Conditions');
    expect(body.querySelector('script')).toBeNull();
    expect(body.querySelector('iframe')).toBeNull();
    expect(body.querySelector('[onerror], [onclick], [style]')).toBeNull();
    expect(body.innerHTML).not.toContain('javascript:');
    const external = body.querySelector('a[href="https://example.dz/cgu"]');
    expect(external?.getAttribute('target')).toBe('_blank');
    expect(external?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(window.pwned).toBeUndefined();
  });

  it('picks the Arabic text in Arabic', async () => {
    answer(SETTINGS);
    await renderWithApp(<PrivacyConditionsPage />, { path: '/privacy-conditions', locale: 'ar' });
    expect((await conditions()).querySelector('h2')?.textContent).toBe('الشروط');
  });

  it('falls back to French when the language has no text', async () => {
    answer(SETTINGS);
    await renderWithApp(<PrivacyConditionsPage />, { path: '/privacy-conditions', locale: 'en' });
    expect((await conditions()).querySelector('h2')?.textContent).toBe('Conditions');
  });

  it('picks the English text in English when there is one', async () => {
    answer({ ...SETTINGS, partner_conditions_en: '<h2>Terms</h2>' });
    await renderWithApp(<PrivacyConditionsPage />, { path: '/privacy-conditions', locale: 'en' });
    expect((await conditions()).querySelector('h2')?.textContent).toBe('Terms');
  });

  it('links back to registration when signed out, to / when signed in', async () => {
    answer(SETTINGS);
    await logout();
    const { unmount } = await renderWithApp(<PrivacyConditionsPage />, { path: '/privacy-conditions' });
    expect(screen.getByRole('link', { name: /Retour à l’inscription/ }).getAttribute('href')).toBe('/register');
    unmount();
    await establishSession({ access_token: 'access-1', user: demoUser });
    await renderWithApp(<PrivacyConditionsPage />, { path: '/privacy-conditions' });
    expect(screen.getByRole('link', { name: /Retour au tableau de bord/ }).getAttribute('href')).toBe('/');
  });

  it('shows loading, then an error with a retry that loads the text', async () => {
    let calls = 0;
    api.mockImplementation(
      scripted({
        'public GET /settings': () => (++calls === 1 ? failed(500, 'Une erreur interne est survenue') : ok(SETTINGS)),
      }),
    );
    await renderWithApp(<PrivacyConditionsPage />, { path: '/privacy-conditions' });
    expect(within(expectVisible(screen.getByRole('status'))).getAllByLabelText('Chargement…')).toHaveLength(1);
    // An alert (announced at once) with the title and the server's message.
    const alert = expectVisible(await screen.findByRole('alert'));
    expect(alert.textContent).toContain('Impossible de charger les conditions');
    expect(alert.textContent).toContain('Une erreur interne est survenue');
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    await waitFor(async () => expect((await conditions()).querySelector('h2')?.textContent).toBe('Conditions'));
  });
});
