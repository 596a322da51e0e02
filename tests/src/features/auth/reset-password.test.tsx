import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../../../../src/lib/api/client';
import ResetPasswordPage from '../../../../src/features/auth/pages/ResetPasswordPage';
import { renderWithApp } from '../../render';
import { clearToasts, failed, fieldErrorOf, ok, scripted, toasts } from '../../support/api';
import { expectVisible } from '../../support/dom';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../src/lib/api/client')>()),
  apiRequest: vi.fn(),
}));

const api = vi.mocked(apiRequest);
const TOKEN = 'v4.local.abcdefghijklmnop';

beforeEach(() => {
  api.mockReset();
});
afterEach(() => {
  vi.useRealTimers();
  clearToasts();
  window.history.replaceState(null, '', '/');
});

/** The emailed link: the address bar holds the token when the page opens. */
async function openLink(search: string) {
  window.history.replaceState(null, '', `/reset-password${search}`);
  return renderWithApp(<ResetPasswordPage />, { path: '/reset-password' });
}

async function fill(newPassword: string, confirm: string) {
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByLabelText(/^Nouveau mot de passe/));
  await user.paste(newPassword);
  await user.click(screen.getByLabelText(/^Confirmer le mot de passe/));
  await user.paste(confirm);
}

describe('reset password page', () => {
  it('takes the token out of the address bar and shows the form', async () => {
    await openLink(`?token=${TOKEN}&lang=fr`);
    expect(expectVisible(screen.getByLabelText(/^Nouveau mot de passe/)).getAttribute('type')).toBe('password');
    expect(expectVisible(screen.getByLabelText(/^Confirmer le mot de passe/)).getAttribute('type')).toBe('password');
    expect(window.location.search).toBe('?lang=fr');
    expect(window.location.href).not.toContain(TOKEN);
  });

  it.each([
    ['a missing token', ''],
    ['an empty token', '?token='],
    ['a token not starting with v4.', '?token=v3.local.abcdef'],
  ])('refuses %s: operation_failed and back to /login', async (_case, search) => {
    const { location } = await openLink(search);
    await waitFor(() => expect(location.history.at(-1)).toBe('/login'));
    // The toast comes after the commit (a microtask), and on a loaded machine after the navigation.
    await waitFor(() =>
      expect(toasts()).toEqual([expect.objectContaining({ type: 'error', title: 'Opération échouée' })]),
    );
    expect(window.location.search).toBe('');
    expect(api).not.toHaveBeenCalled();
  });

  it('shows the mismatch under the confirmation and sends nothing', async () => {
    await openLink(`?token=${TOKEN}`);
    await fill('motdepasse1', 'motdepasse2');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmer' }));
    await waitFor(() =>
      expect(fieldErrorOf(screen.getByLabelText(/^Confirmer le mot de passe/))).toBe(
        'Les mots de passe ne correspondent pas',
      ),
    );
    expect(api).not.toHaveBeenCalled();
  });

  it('sends the new password with the token, says success and goes to /login after 1 s', async () => {
    api.mockImplementation(scripted({ 'auth POST /reset-password': () => ok(null) }));
    const { location } = await openLink(`?token=${TOKEN}`);
    await fill('motdepasse1', 'motdepasse1');

    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Confirmer' }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(api).toHaveBeenCalledWith('auth', '/reset-password', {
      endpoint: 'POST auth /reset-password',
      method: 'POST',
      body: { new_password: 'motdepasse1', confirm_password: 'motdepasse1', token: TOKEN },
    });
    expect(toasts()).toContainEqual(expect.objectContaining({ type: 'success', title: 'Opération réussie' }));

    await act(() => vi.advanceTimersByTimeAsync(990));
    expect(location.history.at(-1)).toBe('/reset-password');
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(location.history.at(-1)).toBe('/login');
  });

  it('says operation_failed when the server refuses the token', async () => {
    api.mockImplementation(
      scripted({ 'auth POST /reset-password': () => failed(400, 'Lien de réinitialisation invalide ou expiré') }),
    );
    const { location } = await openLink(`?token=${TOKEN}`);
    await fill('motdepasse1', 'motdepasse1');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmer' }));
    await waitFor(() =>
      expect(toasts()).toContainEqual(expect.objectContaining({ type: 'error', title: 'Opération échouée' })),
    );
    expect(location.history).toEqual(['/reset-password']);
  });
});
