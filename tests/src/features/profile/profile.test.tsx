import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../../../contract';
import { apiRequest } from '../../../../src/lib/api/client';
import { establishSession, getSession } from '../../../../src/lib/session';
import ProfilePage from '../../../../src/features/profile/pages/ProfilePage';
import { renderWithApp } from '../../render';
import { clearToasts, demoUser, failed, fieldErrorOf, ok, scripted, toasts } from '../../support/api';
import { expectVisible } from '../../support/dom';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../src/lib/api/client')>()),
  apiRequest: vi.fn(),
}));
vi.mock('../../../../src/components/location-picker/LocationMap', () => ({
  default: (props: { onPick(latitude: number, longitude: number): void }) => (
    <button type="button" onClick={() => props.onPick(35.6971, -0.6308)}>
      map click
    </button>
  ),
}));

const api = vi.mocked(apiRequest);

/** The devices section below the form asks for its lists (tests/src/features/profile/devices.test.tsx). */
const DEVICES = { 'auth GET /sessions': () => ok([]), 'auth GET /sign-ins': () => ok([]) };
const user = () => userEvent.setup({ delay: null });

const input = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;

async function replaceText(label: RegExp, text: string) {
  const u = user();
  await u.clear(input(label));
  if (text) {
    await u.click(input(label));
    await u.paste(text);
  }
}

beforeEach(async () => {
  api.mockReset();
  api.mockImplementation(
    scripted({
      ...DEVICES,
      'public GET /client-config': () =>
        ok({
          tile_url: 'https://t.test/{z}/{x}/{y}.png',
          tile_attribution: '',
          geocoder_url: 'https://g.test',
          geocoder_kind: 'photon',
        }),
    }),
  );
  await establishSession({ access_token: 'access-1', user: demoUser });
});
afterEach(() => clearToasts());

async function renderProfile() {
  const rendered = await renderWithApp(<ProfilePage />, { path: '/profile' });
  return rendered;
}

async function startEditing() {
  await user().click(screen.getByRole('button', { name: 'Modifier' }));
  // The masked phone input comes with edit mode; imask is loaded on demand.
  await waitFor(() => expect(input(/Numéro de téléphone/).getAttribute('data-masked')).toBe('true'));
}

describe('profile page', () => {
  it('shows the user read-only, with a close button to / and the picture initials', async () => {
    await renderProfile();
    expect(input(/Nom complet/).value).toBe('Garage El Amel');
    expect(input(/Nom complet/).readOnly).toBe(true);
    expect(input(/E-mail/).value).toBe('garage@example.dz');
    expect(input(/E-mail/).readOnly).toBe(true);
    expect(input(/Numéro de téléphone/).value).toBe('0555123456');
    expect(input(/Localisation/).value).toBe('36.75, 3.06');
    expect(screen.getByRole('link', { name: 'Fermer' }).getAttribute('href')).toBe('/');
    expectVisible(screen.getByText('GA'));
    expect(screen.queryByLabelText(/Mot de passe actuel/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Choisir la localisation' })).toBeNull();
  });

  it('shows the picture from the images path when there is one', async () => {
    await establishSession({ access_token: 'access-1', user: { ...demoUser, picture: 'garage 1.png' } });
    await renderProfile();
    // Shown once loaded (jsdom loads no image): the element is there with its source and name.
    const picture = document.querySelector('img[data-part="image"]');
    expect(picture?.getAttribute('src')).toBe('/api/images/garage%201.png');
    expect(picture?.getAttribute('alt')).toBe('Photo de Garage El Amel');
  });

  it('edit mode shows the password fields; cancel returns to read-only with the stored values', async () => {
    await renderProfile();
    await startEditing();
    expect(input(/Nom complet/).readOnly).toBe(false);
    for (const label of [/Mot de passe actuel/, /Nouveau mot de passe/]) {
      expect(expectVisible(input(label))).toMatchObject({ type: 'password', readOnly: false, value: '' });
    }
    await replaceText(/Nom complet/, 'Autre nom');
    await user().click(screen.getByRole('button', { name: 'Choisir la localisation' }));
    await user().click(await screen.findByRole('button', { name: 'map click' }));
    await user().click(screen.getByRole('button', { name: 'Confirmer' }));
    await waitFor(() => expect(input(/Localisation/).value).toBe('35.6971, -0.6308'));

    await user().click(screen.getByRole('button', { name: 'Annuler' }));
    expect(input(/Nom complet/).value).toBe('Garage El Amel');
    expect(input(/Nom complet/).readOnly).toBe(true);
    expect(input(/Localisation/).value).toBe('36.75, 3.06');
    expect(screen.queryByLabelText(/Mot de passe actuel/)).toBeNull();

    await startEditing();
    expect(input(/Nom complet/).value).toBe('Garage El Amel');
    expect(api).not.toHaveBeenCalledWith('partner', expect.anything(), expect.anything());
  });

  it('confirm sends only what changed, replaces the stored user and says success', async () => {
    const updated: User = {
      ...demoUser,
      full_name: 'Garage Ennour',
      partner: { ...demoUser.partner, phone_number: '021123456' },
    };
    api.mockImplementation(scripted({ ...DEVICES, 'partner PATCH /profile': () => ok(updated) }));
    await renderProfile();
    await startEditing();
    await replaceText(/Nom complet/, 'Garage Ennour');
    await user().clear(input(/Numéro de téléphone/));
    await user().type(input(/Numéro de téléphone/), '21123456');
    await user().click(screen.getByRole('button', { name: 'Confirmer' }));

    await waitFor(() => expect(input(/Nom complet/).readOnly).toBe(true));
    expect(api).toHaveBeenCalledWith('partner', '/profile', {
      endpoint: 'PATCH partner /profile',
      method: 'PATCH',
      body: { full_name: 'Garage Ennour', phone_number: '021123456' },
    });
    expect(getSession().user).toEqual(updated);
    expect(input(/Nom complet/).value).toBe('Garage Ennour');
    expect(input(/Numéro de téléphone/).value).toBe('021123456');
    await waitFor(() =>
      expect(toasts()).toContainEqual(expect.objectContaining({ type: 'success', title: 'Opération réussie' })),
    );
  });

  it('changing the email needs the current password, which is then sent with it', async () => {
    api.mockImplementation(
      scripted({ ...DEVICES, 'partner PATCH /profile': () => ok({ ...demoUser, email: 'nouveau@example.dz' }) }),
    );
    await renderProfile();
    await startEditing();
    await replaceText(/E-mail/, 'nouveau@example.dz');
    await user().click(screen.getByRole('button', { name: 'Confirmer' }));
    await waitFor(() =>
      expect(fieldErrorOf(input(/Mot de passe actuel/))).toBe(
        'Le mot de passe actuel est requis pour changer le mot de passe ou l’e-mail',
      ),
    );
    expect(api).not.toHaveBeenCalledWith('partner', '/profile', expect.anything());

    await user().click(input(/Mot de passe actuel/));
    await user().paste('ancien-mdp');
    await user().click(input(/Nouveau mot de passe/));
    await user().paste('nouveau-mdp');
    await user().click(screen.getByRole('button', { name: 'Confirmer' }));
    await waitFor(() =>
      expect(api).toHaveBeenCalledWith('partner', '/profile', {
        endpoint: 'PATCH partner /profile',
        method: 'PATCH',
        body: {
          email: 'nouveau@example.dz',
          new_password: 'nouveau-mdp',
          sign_out_others: true,
          current_password: 'ancien-mdp',
        },
      }),
    );
  });

  it('requires full name and email while editing', async () => {
    await renderProfile();
    await startEditing();
    await replaceText(/Nom complet/, '');
    await replaceText(/E-mail/, '');
    await user().click(screen.getByRole('button', { name: 'Confirmer' }));
    await waitFor(() => {
      expect(fieldErrorOf(input(/Nom complet/))).toBe('Le nom complet est requis');
      expect(fieldErrorOf(input(/E-mail/))).toBe("L'adresse e-mail est requise");
    });
    expect(api).not.toHaveBeenCalledWith('partner', '/profile', expect.anything());
  });

  it("shows the server's message in a toast and its field errors, and stays in edit mode", async () => {
    api.mockImplementation(
      scripted({
        ...DEVICES,
        'partner PATCH /profile': () =>
          failed(400, 'Le mot de passe actuel est incorrect', {
            current_password: 'Le mot de passe actuel est incorrect',
          }),
      }),
    );
    await renderProfile();
    await startEditing();
    await user().click(input(/Nouveau mot de passe/));
    await user().paste('nouveau-mdp');
    await user().click(input(/Mot de passe actuel/));
    await user().paste('faux');
    await user().click(screen.getByRole('button', { name: 'Confirmer' }));
    await waitFor(() =>
      expect(toasts()).toContainEqual(
        expect.objectContaining({ type: 'error', title: 'Le mot de passe actuel est incorrect' }),
      ),
    );
    await waitFor(() =>
      expect(fieldErrorOf(input(/Mot de passe actuel/))).toBe('Le mot de passe actuel est incorrect'),
    );
    expect(input(/Nom complet/).readOnly).toBe(false);
    expect(getSession().user).toEqual(demoUser);
  });
});
