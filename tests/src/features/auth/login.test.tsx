import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../../../../src/lib/api/client';
import { getSession } from '../../../../src/lib/session';
import LoginPage from '../../../../src/features/auth/pages/LoginPage';
import { renderWithApp } from '../../render';
import { clearToasts, demoUser, failed, fieldErrorOf, ok, scripted, toasts } from '../../support/api';
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

async function fillAndSubmit(email: string, password: string, remember = false) {
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByLabelText(/E-mail/));
  await user.paste(email);
  await user.click(screen.getByLabelText(/^Mot de passe/));
  await user.paste(password);
  if (remember) await user.click(screen.getByRole('checkbox', { name: 'Se souvenir de moi' }));
  await user.click(screen.getByRole('button', { name: 'Se connecter' }));
}

describe('login page', () => {
  it('shows the logo, the fields and the links', async () => {
    await renderWithApp(<LoginPage />, { path: '/login' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Connexion à l’espace partenaire');
    expect(screen.getByLabelText(/E-mail/).getAttribute('type')).toBe('email');
    expect(screen.getByLabelText(/^Mot de passe/).getAttribute('type')).toBe('password');
    expect(screen.getByRole('link', { name: 'Mot de passe oublié ?' }).getAttribute('href')).toBe('/forgot-password');
    expect(screen.getByRole('link', { name: 'Créer un compte partenaire' }).getAttribute('href')).toBe('/register');
    expectVisible(screen.getByText('KODE Garage'));
  });

  it('signs in, says so and goes to / replacing the history', async () => {
    api.mockImplementation(scripted({ 'auth POST /login': () => ok({ access_token: 'access-1', user: demoUser }) }));
    const { location } = await renderWithApp(<LoginPage />, { path: '/login' });
    await fillAndSubmit('garage@example.dz', 'secret-password', true);

    await waitFor(() => expect(location.history).toEqual(['/']));
    expect(api).toHaveBeenCalledWith('auth', '/login', {
      endpoint: 'POST auth /login',
      method: 'POST',
      body: { email: 'garage@example.dz', password: 'secret-password', remember_me: true },
    });
    // The toasts' code loads with the first toast.
    await waitFor(() =>
      expect(toasts()).toContainEqual(expect.objectContaining({ type: 'success', title: 'Connexion réussie' })),
    );
    expect(getSession()).toMatchObject({ status: 'authenticated', accessToken: 'access-1', user: demoUser });
  });

  it("shows the server's message in an error toast and stays", async () => {
    api.mockImplementation(scripted({ 'auth POST /login': () => failed(401, 'E-mail ou mot de passe incorrect') }));
    const { location } = await renderWithApp(<LoginPage />, { path: '/login' });
    await fillAndSubmit('garage@example.dz', 'wrong-password');

    await waitFor(() =>
      expect(toasts()).toContainEqual(
        expect.objectContaining({ type: 'error', title: 'E-mail ou mot de passe incorrect' }),
      ),
    );
    expect(location.history).toEqual(['/login']);
    expect(screen.getByRole('button', { name: 'Se connecter' }).hasAttribute('disabled')).toBe(false);
  });

  it('checks the fields before sending anything', async () => {
    await renderWithApp(<LoginPage />, { path: '/login' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/E-mail/), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    await waitFor(() => {
      expect(fieldErrorOf(screen.getByLabelText(/E-mail/))).toBe('Adresse e-mail invalide');
      expect(fieldErrorOf(screen.getByLabelText(/^Mot de passe/))).toBe('Le mot de passe est requis');
    });
    expect(api).not.toHaveBeenCalled();
  });

  it('shows a loading state while the sign-in is pending', async () => {
    let answer: (value: ReturnType<typeof failed>) => void = () => undefined;
    api.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    await renderWithApp(<LoginPage />, { path: '/login' });
    const button = screen.getByRole('button', { name: 'Se connecter' });
    await fillAndSubmit('garage@example.dz', 'secret-password');
    await waitFor(() => expect(button.hasAttribute('data-loading')).toBe(true));
    answer(failed(401, 'Non'));
    await waitFor(() => expect(button.hasAttribute('data-loading')).toBe(false));
  });
});
