import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../../../../src/lib/api/client';
import { getSession } from '../../../../src/lib/session';
import RegisterPage from '../../../../src/features/auth/pages/RegisterPage';
import { renderWithApp } from '../../render';
import { clearToasts, demoUser, failed, fieldErrorBeside, fieldErrorOf, ok, scripted, toasts } from '../../support/api';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../src/lib/api/client')>()),
  apiRequest: vi.fn(),
}));
vi.mock('../../../../src/components/location-picker/LocationMap', () => ({
  default: () => null,
}));

const api = vi.mocked(apiRequest);

beforeEach(() => {
  api.mockReset();
});
afterEach(() => clearToasts());

async function renderPage() {
  const rendered = await renderWithApp(<RegisterPage />, { path: '/register' });
  const phone = screen.getByLabelText(/Numéro de téléphone/);
  // imask is loaded on demand: wait until it has taken the input over.
  await waitFor(() => expect(phone.getAttribute('data-masked')).toBe('true'));
  return { ...rendered, phone: phone as HTMLInputElement };
}

const user = () => userEvent.setup({ delay: null });

async function fill(values: { name?: string; phone?: string; email?: string; password?: string; accept?: boolean }) {
  const u = user();
  const paste = async (label: RegExp, text: string) => {
    await u.click(screen.getByLabelText(label));
    await u.paste(text);
  };
  if (values.name) await paste(/Nom complet/, values.name);
  if (values.phone) await u.type(screen.getByLabelText(/Numéro de téléphone/), values.phone);
  if (values.email) await paste(/E-mail/, values.email);
  if (values.password) await paste(/^Mot de passe/, values.password);
  if (values.accept) await u.click(screen.getByRole('checkbox'));
}

const submit = () => user().click(screen.getByRole('button', { name: 'S’inscrire' }));

describe('register page', () => {
  it('shows the location as "latitude, longitude", 36, 3 by default, and links the conditions in a new tab', async () => {
    await renderPage();
    const location = screen.getByLabelText(/Localisation/) as HTMLInputElement;
    expect(location.value).toBe('36, 3');
    expect(location.readOnly).toBe(true);
    const conditions = screen.getByRole('link', { name: 'conditions de confidentialité' });
    expect(conditions.getAttribute('href')).toBe('/privacy-conditions');
    expect(conditions.getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: 'Se connecter' }).getAttribute('href')).toBe('/login');
  });

  it('requires every field and the acceptance of the conditions, and sends nothing', async () => {
    await renderPage();
    await submit();
    // A field links its message to the input once the message is rendered: wait for the links.
    await waitFor(() => {
      expect(fieldErrorOf(screen.getByLabelText(/Nom complet/))).toBe('Le nom complet est requis');
      expect(fieldErrorOf(screen.getByLabelText(/Numéro de téléphone/))).toBe(
        'Numéro de téléphone invalide (0 suivi de 8 à 10 chiffres)',
      );
      expect(fieldErrorOf(screen.getByLabelText(/E-mail/))).toBe("L'adresse e-mail est requise");
      expect(fieldErrorOf(screen.getByLabelText(/^Mot de passe/))).toBe('Le mot de passe est requis');
    });
    expect(fieldErrorBeside(screen.getByRole('checkbox'))).toBe(
      'Vous devez accepter les conditions de confidentialité',
    );
    expect(api).not.toHaveBeenCalled();
  });

  it('requires the acceptance of the privacy conditions even when all else is valid', async () => {
    await renderPage();
    await fill({ name: 'Garage El Amel', phone: '555123456', email: 'garage@example.dz', password: 'motdepasse1' });
    await submit();
    await waitFor(() =>
      expect(fieldErrorBeside(screen.getByRole('checkbox'))).toBe(
        'Vous devez accepter les conditions de confidentialité',
      ),
    );
    expect(screen.queryByText('Le nom complet est requis')).toBeNull();
    expect(api).not.toHaveBeenCalled();
  });

  it('masks the phone number: a fixed leading 0, digits only, at most 10 after it', async () => {
    const { phone } = await renderPage();
    const u = user();
    await u.type(phone, '555abc12');
    expect(phone.value).toBe('055512');
    await u.clear(phone);
    await u.type(phone, '0555123456789');
    expect(phone.value).toBe('05551234567');
  });

  it('accepts 0 followed by 8 to 10 digits and refuses fewer', async () => {
    const { phone } = await renderPage();
    const u = user();
    await u.type(phone, '5551234');
    await submit();
    await waitFor(() => expect(fieldErrorOf(phone)).toBe('Numéro de téléphone invalide (0 suivi de 8 à 10 chiffres)'));
    await u.type(phone, '5');
    await waitFor(() =>
      expect(screen.queryByText('Numéro de téléphone invalide (0 suivi de 8 à 10 chiffres)')).toBeNull(),
    );
    expect(phone.value).toBe('055512345');
    await u.type(phone, '67');
    expect(phone.value).toBe('05551234567');
    expect(screen.queryByText('Numéro de téléphone invalide (0 suivi de 8 à 10 chiffres)')).toBeNull();
  });

  it('registers, says so, signs in and goes to /', async () => {
    api.mockImplementation(
      scripted({ 'auth POST /register/partner': () => ok({ access_token: 'access-2', user: demoUser }, 201) }),
    );
    const { location } = await renderPage();
    await fill({
      name: 'Garage El Amel',
      phone: '555123456',
      email: 'garage@example.dz',
      password: 'motdepasse1',
      accept: true,
    });
    await submit();
    await waitFor(() => expect(location.history.at(-1)).toBe('/'));
    expect(api).toHaveBeenCalledWith('auth', '/register/partner', {
      endpoint: 'POST auth /register/partner',
      method: 'POST',
      body: {
        email: 'garage@example.dz',
        full_name: 'Garage El Amel',
        location: { latitude: 36, longitude: 3 },
        password: 'motdepasse1',
        phone_number: '0555123456',
        privacy_conditions: true,
      },
    });
    expect(toasts()).toContainEqual(
      expect.objectContaining({ type: 'success', title: 'Votre compte partenaire a été créé. Bienvenue !' }),
    );
    expect(getSession()).toMatchObject({ status: 'authenticated', accessToken: 'access-2' });
  });

  it("shows the server's message in a toast and its field errors under the fields", async () => {
    api.mockImplementation(
      scripted({
        'auth POST /register/partner': () =>
          failed(409, 'Impossible de créer un compte avec cette adresse e-mail', {
            email: 'Impossible de créer un compte avec cette adresse e-mail',
          }),
      }),
    );
    const { location } = await renderPage();
    await fill({
      name: 'Garage El Amel',
      phone: '555123456',
      email: 'taken@example.dz',
      password: 'motdepasse1',
      accept: true,
    });
    await submit();
    await waitFor(() =>
      expect(toasts()).toContainEqual(
        expect.objectContaining({ type: 'error', title: 'Impossible de créer un compte avec cette adresse e-mail' }),
      ),
    );
    await waitFor(() =>
      expect(fieldErrorOf(screen.getByLabelText(/E-mail/))).toBe(
        'Impossible de créer un compte avec cette adresse e-mail',
      ),
    );
    expect(location.history).toEqual(['/register']);
  });

  it('opens the location picker from the location field', async () => {
    api.mockImplementation(
      scripted({
        'public GET /client-config': () =>
          ok({
            tile_url: 'https://tiles.test/{z}/{x}/{y}.png',
            tile_attribution: 'Tiles',
            geocoder_url: 'https://geo.test/api',
            geocoder_kind: 'photon',
          }),
      }),
    );
    await renderPage();
    await user().click(screen.getByRole('button', { name: 'Choisir la localisation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choisir la localisation' });
    expect(within(dialog).getByTestId('selected-point').textContent).toContain('36, 3');
  });
});
