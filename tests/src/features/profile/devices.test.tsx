/**
 * The profile's connected devices (docs/PRODUCT.md#connected-devices): the list with this tablet marked,
 * "Déconnecter" on each other device and "Déconnecter tous les autres" behind a confirmation, the list
 * asked again after each, the recent sign-ins, the failures in the user's language, the offline note,
 * and the password change's choice to sign the other devices out.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiFailure } from '../../../../contract';
import { apiRequest } from '../../../../src/lib/api/client';
import { formatDateTime } from '../../../../src/lib/dates';
import { activateLocale } from '../../../../src/lib/i18n';
import { establishSession } from '../../../../src/lib/session';
import type { DeviceSession } from '../../../../src/features/profile/api/list-sessions';
import type { SignIn } from '../../../../src/features/profile/api/list-sign-ins';
import ProfilePage from '../../../../src/features/profile/pages/ProfilePage';
import { renderWithApp } from '../../render';
import { clearToasts, demoUser, expectToast, offline, ok, scripted, type Handler } from '../../support/api';
import { expectVisible } from '../../support/dom';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../src/lib/api/client')>()),
  apiRequest: vi.fn(),
}));

const api = vi.mocked(apiRequest);
const user = () => userEvent.setup({ delay: null });

const THIS_TABLET: DeviceSession = {
  id: '11111111-1111-4111-8111-111111111111',
  device: 'Chrome 131 · Android 14 · Samsung SM-X200',
  signed_in_at: '2026-11-20T08:00:00.000Z',
  last_used_at: '2026-11-28T09:30:00.000Z',
  address: '192.0.2.x',
  current: true,
};
const OTHER_TABLET: DeviceSession = {
  id: '22222222-2222-4222-8222-222222222222',
  device: 'Firefox 133 · Windows 11',
  signed_in_at: '2026-11-25T14:05:00.000Z',
  last_used_at: '2026-11-27T17:45:00.000Z',
  address: '198.51.100.x',
  current: false,
};
const UNKNOWN_DEVICE: DeviceSession = {
  id: '33333333-3333-4333-8333-333333333333',
  device: '',
  signed_in_at: '2026-11-26T10:00:00.000Z',
  last_used_at: '2026-11-28T07:00:00.000Z',
  address: null,
  current: false,
};
const SIGN_INS: SignIn[] = [
  { at: '2026-11-20T08:00:00.000Z', device: THIS_TABLET.device, address: '192.0.2.x', new_device: false },
  { at: '2026-11-26T10:00:00.000Z', device: '', address: '203.0.113.x', new_device: true },
];

/** The server as this test sees it: the sessions it holds, and what each call answers. */
let sessions: DeviceSession[];
let handlers: Record<string, Handler>;

function revoked(): ApiFailure {
  return { code: 404, status: 'error', error: { type: 'not_found', reason: 'session_not_found', message: '' } };
}

beforeEach(async () => {
  sessions = [OTHER_TABLET, THIS_TABLET, UNKNOWN_DEVICE];
  handlers = {
    'auth GET /sessions': () => ok(sessions),
    'auth GET /sign-ins': () => ok(SIGN_INS),
    'auth DELETE /sessions/22222222-2222-4222-8222-222222222222': () => {
      sessions = sessions.filter((session) => session.id !== OTHER_TABLET.id);
      return ok(null);
    },
    'auth DELETE /sessions?others=true': () => {
      sessions = sessions.filter((session) => session.current);
      return ok(null);
    },
  };
  api.mockReset();
  api.mockImplementation((base, path, options) => scripted(handlers)(base, path, options));
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
  await establishSession({ access_token: 'access-1', user: demoUser });
});
afterEach(() => clearToasts());

const section = () => screen.getByRole('region', { name: 'Appareils connectés' });
const devices = () => within(section()).getAllByTestId('device');
const sessionCalls = () => api.mock.calls.filter(([base, path]) => base === 'auth' && path === '/sessions').length;

/** The profile page, once its devices section (loaded on demand, with its words) is there. */
async function openProfile() {
  const rendered = await renderWithApp(<ProfilePage />, { path: '/profile' });
  await screen.findByRole('region', { name: 'Appareils connectés' }, { timeout: 5000 });
  return rendered;
}

async function openDevices() {
  await openProfile();
  await waitFor(() => expect(devices()).toHaveLength(3));
}

describe('connected devices', () => {
  it('lists the devices, this one first and marked, each with its dates and address', async () => {
    await openDevices();
    const [first, second, third] = devices();
    expect(first!.textContent).toContain('Chrome 131 · Android 14 · Samsung SM-X200');
    expectVisible(within(first!).getByText('Cet appareil'));
    expect(first!.getAttribute('aria-current')).toBe('true');
    expect(within(first!).queryByRole('button', { name: 'Déconnecter' })).toBeNull();
    expect(first!.textContent).toContain(`Connecté le${formatDateTime(THIS_TABLET.signed_in_at)}`);
    expect(first!.textContent).toContain(`Dernière activité${formatDateTime(THIS_TABLET.last_used_at)}`);
    expect(first!.textContent).toContain('Adresse192.0.2.x');

    // Then the most recently used: the unknown device, then the other tablet.
    expect(second!.textContent).toContain('Appareil inconnu');
    expect(second!.textContent).toContain('AdresseInconnue');
    expect(third!.textContent).toContain('Firefox 133 · Windows 11');
    for (const other of [second!, third!]) {
      expect(within(other).queryByText('Cet appareil')).toBeNull();
      const button = expectVisible(within(other).getByRole('button', { name: 'Déconnecter' }));
      // The button says which device it signs out to assistive technology.
      expect(button.getAttribute('aria-describedby')).toBeTruthy();
      expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(
        other === second ? 'Appareil inconnu' : 'Firefox 133 · Windows 11',
      );
    }
    expectVisible(within(section()).getByRole('button', { name: 'Déconnecter tous les autres' }));
    expect(api).toHaveBeenCalledWith('auth', '/sessions', {
      endpoint: 'GET auth /sessions',
      method: 'GET',
      bearer: true,
    });
    expect(api).toHaveBeenCalledWith('auth', '/sign-ins', {
      endpoint: 'GET auth /sign-ins',
      method: 'GET',
      bearer: true,
    });
  });

  it('lists the recent sign-ins, newest first, a new device marked', async () => {
    await openDevices();
    const recent = within(section()).getByRole('region', { name: 'Connexions récentes' });
    const rows = within(recent).getAllByTestId('sign-in');
    expect(rows.map((row) => row.textContent)).toEqual([
      `${formatDateTime('2026-11-26T10:00:00.000Z')}Nouvel appareilAppareil inconnu · 203.0.113.x`,
      `${formatDateTime('2026-11-20T08:00:00.000Z')}Chrome 131 · Android 14 · Samsung SM-X200 · 192.0.2.x`,
    ]);
  });

  it('signs out one other device after its confirmation, then asks for the list again', async () => {
    await openDevices();
    const asked = sessionCalls();
    await user().click(within(devices()[2]!).getByRole('button', { name: 'Déconnecter' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Déconnecter cet appareil ?' });
    expect(dialog.textContent).toContain('Firefox 133 · Windows 11');
    expect(dialog.textContent).toContain('Il devra se reconnecter. Les saisies non envoyées restent dessus.');
    await user().click(within(dialog).getByRole('button', { name: 'Déconnecter' }));

    await waitFor(() => expect(devices()).toHaveLength(2));
    expect(api).toHaveBeenCalledWith('auth', `/sessions/${OTHER_TABLET.id}`, {
      endpoint: 'DELETE auth /sessions/{id}',
      method: 'DELETE',
      bearer: true,
    });
    expect(sessionCalls()).toBe(asked + 1);
    expect(section().textContent).not.toContain('Firefox 133');
    await expectToast({ type: 'success', title: 'Appareil déconnecté', description: undefined });
  });

  it('signs out nothing when the confirmation is cancelled', async () => {
    await openDevices();
    await user().click(within(devices()[2]!).getByRole('button', { name: 'Déconnecter' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Déconnecter cet appareil ?' });
    await user().click(within(dialog).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.mock.calls.some(([, , options]) => options?.method === 'DELETE')).toBe(false);
    expect(devices()).toHaveLength(3);
  });

  it('signs out every other device after its confirmation', async () => {
    await openDevices();
    await user().click(within(section()).getByRole('button', { name: 'Déconnecter tous les autres' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Déconnecter tous les autres appareils ?' });
    expect(dialog.textContent).toContain(
      '2 autres appareils devront se reconnecter. Leurs saisies non envoyées y restent.',
    );
    await user().click(within(dialog).getByRole('button', { name: 'Déconnecter tous les autres' }));

    await waitFor(() => expect(devices()).toHaveLength(1));
    expect(api).toHaveBeenCalledWith('auth', '/sessions?others=true', {
      endpoint: 'DELETE auth /sessions',
      method: 'DELETE',
      bearer: true,
    });
    expect(within(section()).queryByRole('button', { name: 'Déconnecter tous les autres' })).toBeNull();
    await expectToast({ type: 'success', title: 'Autres appareils déconnectés', description: undefined });
  });

  it('says why a sign-out failed, in French, and shows the list as the server now has it', async () => {
    handlers[`auth DELETE /sessions/${OTHER_TABLET.id}`] = () => {
      sessions = sessions.filter((session) => session.id !== OTHER_TABLET.id);
      return revoked();
    };
    await openDevices();
    await user().click(within(devices()[2]!).getByRole('button', { name: 'Déconnecter' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Déconnecter cet appareil ?' });
    await user().click(within(dialog).getByRole('button', { name: 'Déconnecter' }));
    await expectToast({ type: 'error', title: 'Appareil déjà déconnecté', description: undefined });
    await waitFor(() => expect(devices()).toHaveLength(2));
  });

  it('shows a failure of the list in the user’s language, with Retry', async () => {
    let failing = true;
    handlers['auth GET /sessions'] = () =>
      failing
        ? { code: 500, status: 'error', error: { type: 'other', reason: 'internal', message: '' } }
        : ok(sessions);
    await openProfile();
    const note = await within(section()).findByText('Une erreur interne est survenue, veuillez réessayer');
    expectVisible(note);
    failing = false;
    await user().click(within(section()).getByRole('button', { name: 'Réessayer' }));
    await waitFor(() => expect(devices()).toHaveLength(3));
    expect(section().textContent).not.toContain('Une erreur interne');
  });

  it('offline, says the list needs the network instead of an old failure, and loads once back online', async () => {
    handlers['auth GET /sessions'] = () => ({
      code: 500,
      status: 'error',
      error: { type: 'other', reason: 'internal', message: '' },
    });
    await openProfile();
    await within(section()).findByText('Une erreur interne est survenue, veuillez réessayer');

    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    window.dispatchEvent(new Event('offline'));
    expectVisible(await within(section()).findByText('La liste des appareils demande une connexion au réseau.'));
    expect(section().textContent).not.toContain('Une erreur interne');

    handlers['auth GET /sessions'] = () => ok(sessions);
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(devices()).toHaveLength(3));
  });

  it('says the list needs the network when the server cannot be reached', async () => {
    handlers['auth GET /sessions'] = () => offline();
    await openProfile();
    expectVisible(await within(section()).findByText('La liste des appareils demande une connexion au réseau.'));
  });

  it('asks nothing of the server while offline', async () => {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    await openProfile();
    expectVisible(await within(section()).findByText('La liste des appareils demande une connexion au réseau.'));
    expect(sessionCalls()).toBe(0);
  });

  it('speaks Arabic, right to left, with dates and addresses left to right', async () => {
    await openDevices();
    // The mechanic switches language: the section's Arabic words, a catalog of their own, load with it.
    await act(() => activateLocale('ar'));
    const region = await screen.findByRole('region', { name: 'الأجهزة المتصلة' }, { timeout: 5000 });
    await waitFor(() => expect(within(region).getAllByTestId('device')).toHaveLength(3));
    expect(document.documentElement.dir).toBe('rtl');
    const [first] = within(region).getAllByTestId('device');
    expectVisible(within(first!).getByText('هذا الجهاز'));
    expect(within(region).getAllByRole('button', { name: 'تسجيل الخروج' })).toHaveLength(2);
    expect(within(region).getByRole('button', { name: 'تسجيل خروج كل الأجهزة الأخرى' })).toBeTruthy();
    const date = within(first!).getByText(formatDateTime(THIS_TABLET.signed_in_at));
    expect(date.closest('bdi')?.getAttribute('dir')).toBe('ltr');
    expect(within(first!).getByText('192.0.2.x').closest('bdi')?.getAttribute('dir')).toBe('ltr');
    expect(within(region).getByText('جهاز جديد')).toBeTruthy();
  });
});

describe('the password change on the profile form', () => {
  async function changePassword(signOutOthers: boolean) {
    handlers['partner PATCH /profile'] = () => ok(demoUser);
    await openDevices();
    await user().click(screen.getByRole('button', { name: 'Modifier' }));
    expect(screen.queryByRole('checkbox', { name: 'Déconnecter les autres appareils' })).toBeNull();
    await user().click(screen.getByLabelText(/Mot de passe actuel/));
    await user().paste('ancien-mdp');
    await user().click(screen.getByLabelText(/Nouveau mot de passe/));
    await user().paste('nouveau-mdp');
    const box = (await screen.findByRole('checkbox', {
      name: 'Déconnecter les autres appareils',
    })) as HTMLInputElement;
    expect(box.checked).toBe(true);
    expectVisible(
      screen.getByText('Ils devront se connecter avec le nouveau mot de passe. Cet appareil reste connecté.'),
    );
    if (!signOutOthers) {
      await user().click(box);
      expect(box.checked).toBe(false);
      expectVisible(screen.getByText('Les autres appareils restent connectés.'));
    }
    const asked = sessionCalls();
    await user().click(screen.getByRole('button', { name: 'Confirmer' }));
    await waitFor(() =>
      expect(api).toHaveBeenCalledWith('partner', '/profile', {
        endpoint: 'PATCH partner /profile',
        method: 'PATCH',
        body: { new_password: 'nouveau-mdp', current_password: 'ancien-mdp', sign_out_others: signOutOthers },
      }),
    );
    // The other devices may be gone: their list is asked again.
    await waitFor(() => expect(sessionCalls()).toBe(asked + 1));
  }

  it('offers to sign the other devices out, checked by default, and sends the choice', async () => {
    await changePassword(true);
  });

  it('sends the choice to keep them signed in when it is unchecked', async () => {
    await changePassword(false);
  });

  it('offers nothing when the password does not change', async () => {
    await openDevices();
    await user().click(screen.getByRole('button', { name: 'Modifier' }));
    await user().click(screen.getByLabelText(/Mot de passe actuel/));
    await user().paste('ancien-mdp');
    expect(screen.queryByRole('checkbox', { name: 'Déconnecter les autres appareils' })).toBeNull();
  });
});
