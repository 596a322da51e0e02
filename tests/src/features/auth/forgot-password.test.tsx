import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../../../../src/lib/api/client';
import ForgotPasswordPage from '../../../../src/features/auth/pages/ForgotPasswordPage';
import { renderWithApp } from '../../render';
import { clearToasts, failed, fieldErrorOf, offline, ok, scripted, toasts } from '../../support/api';
import { expectVisible } from '../../support/dom';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../src/lib/api/client')>()),
  apiRequest: vi.fn(),
}));

const api = vi.mocked(apiRequest);

beforeEach(() => {
  api.mockReset();
});
afterEach(() => clearToasts());

async function send(email: string) {
  const user = userEvent.setup({ delay: null });
  if (email) {
    await user.click(screen.getByLabelText(/E-mail/));
    await user.paste(email);
  }
  await user.click(screen.getByRole('button', { name: 'Envoyer le lien' }));
}

describe('forgot password page', () => {
  it('explains, asks for the email and links back to sign-in', async () => {
    await renderWithApp(<ForgotPasswordPage />, { path: '/forgot-password' });
    expectVisible(screen.getByText(/nous vous enverrons un lien/));
    expect(screen.getByLabelText(/E-mail/).getAttribute('type')).toBe('email');
    expect(screen.getByRole('link', { name: 'Retour à la connexion' }).getAttribute('href')).toBe('/login');
  });

  it('requires the email and sends nothing without it', async () => {
    await renderWithApp(<ForgotPasswordPage />, { path: '/forgot-password' });
    await send('');
    await waitFor(() => expect(fieldErrorOf(screen.getByLabelText(/E-mail/))).toBe("L'adresse e-mail est requise"));
    expect(api).not.toHaveBeenCalled();
  });

  it('says email_sent and goes to /login', async () => {
    api.mockImplementation(scripted({ 'auth POST /forgot-password': () => ok(null) }));
    const { location } = await renderWithApp(<ForgotPasswordPage />, { path: '/forgot-password' });
    await send('garage@example.dz');
    await waitFor(() => expect(location.history.at(-1)).toBe('/login'));
    expect(api).toHaveBeenCalledWith('auth', '/forgot-password', {
      endpoint: 'POST auth /forgot-password',
      method: 'POST',
      body: { email: 'garage@example.dz' },
    });
    expect(toasts()).toContainEqual(expect.objectContaining({ type: 'success', title: 'E-mail envoyé' }));
  });

  it('says operation_failed when the server refuses', async () => {
    api.mockImplementation(
      scripted({ 'auth POST /forgot-password': () => failed(429, 'Trop de tentatives, veuillez réessayer plus tard') }),
    );
    const { location } = await renderWithApp(<ForgotPasswordPage />, { path: '/forgot-password' });
    await send('garage@example.dz');
    await waitFor(() =>
      expect(toasts()).toContainEqual(
        expect.objectContaining({
          type: 'error',
          title: 'Opération échouée',
          description: 'Trop de tentatives, veuillez réessayer plus tard',
        }),
      ),
    );
    expect(location.history).toEqual(['/forgot-password']);
  });

  it('says operation_failed when the server cannot be reached', async () => {
    api.mockImplementation(scripted({ 'auth POST /forgot-password': () => offline() }));
    await renderWithApp(<ForgotPasswordPage />, { path: '/forgot-password' });
    await send('garage@example.dz');
    await waitFor(() =>
      expect(toasts()).toContainEqual(expect.objectContaining({ type: 'error', title: 'Opération échouée' })),
    );
  });
});
