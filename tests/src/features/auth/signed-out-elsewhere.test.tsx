/**
 * /login after this device was signed out from another one (docs/PRODUCT.md#connected-devices): it says
 * so, in the user's language, until the next sign-in; after a plain sign-out or expiry it says nothing.
 */
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../../../../src/lib/api/client';
import { establishSession, refreshSession } from '../../../../src/lib/session';
import LoginPage from '../../../../src/features/auth/pages/LoginPage';
import { renderWithApp } from '../../render';
import { clearToasts, demoUser, ok, scripted } from '../../support/api';
import { expectVisible } from '../../support/dom';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../src/lib/api/client')>()),
  apiRequest: vi.fn(),
}));

const api = vi.mocked(apiRequest);
const MESSAGE = 'Cet appareil a été déconnecté depuis un autre appareil';

/** Signed in, then the server refuses the refresh for this reason. */
async function refusedRefresh(reason: 'session_revoked' | 'session_expired') {
  await establishSession({ access_token: 'access-1', user: demoUser });
  api.mockImplementation(
    scripted({
      'auth POST /refresh': () => ({ code: 401, status: 'error', error: { type: 'auth', reason, message: '' } }),
    }),
  );
  expect(await refreshSession()).toBe('unauthorized');
}

beforeEach(() => {
  api.mockReset();
});
afterEach(() => clearToasts());

describe('the sign-in page after a sign-out from another device', () => {
  it('says why until the next sign-in', async () => {
    await refusedRefresh('session_revoked');
    await renderWithApp(<LoginPage />, { path: '/login' });
    const alert = expectVisible(screen.getByRole('alert'));
    expect(alert.textContent).toBe(MESSAGE);

    api.mockImplementation(scripted({ 'auth POST /login': () => ok({ access_token: 'access-2', user: demoUser }) }));
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByLabelText(/E-mail/));
    await user.paste('garage@example.dz');
    await user.click(screen.getByLabelText(/^Mot de passe/));
    await user.paste('secret-password');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    await waitFor(() => expect(screen.queryByText(MESSAGE)).toBeNull());
  });

  it('says it in Arabic and English too', async () => {
    await refusedRefresh('session_revoked');
    await renderWithApp(<LoginPage />, { path: '/login', locale: 'ar' });
    expect(screen.getByRole('alert').textContent).toBe('تم تسجيل خروج هذا الجهاز من جهاز آخر');
    await renderWithApp(<LoginPage />, { path: '/login', locale: 'en' });
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain(
        'This device was logged out from another device',
      ),
    );
  });

  it('says nothing after a session that merely expired', async () => {
    await refusedRefresh('session_expired');
    await act(async () => {
      await renderWithApp(<LoginPage />, { path: '/login' });
    });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(MESSAGE)).toBeNull();
  });
});
