/**
 * A mileage certificate's public page, /c/{id} (docs/PRODUCT.md#mileage-certificate): the certificate
 * checked in the browser against the published key, its status, the readings in a buyer's words, a
 * number that no certificate has, the failures to try again, and the reader's own language.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { PublicCertificate } from '../../../../contract';
import { paths } from '../../../../src/config/paths';
import CertificatePage from '../../../../src/features/certificate/pages/CertificatePage';
import { getCertificateKeys } from '../../../../src/lib/api/certificate-keys';
import { apiRequest } from '../../../../src/lib/api/client';
import { formatDateTime } from '../../../../src/lib/dates';
import { formatKm } from '../../../../src/lib/format';
import { useCertificateCatalog } from '../../../../src/lib/certificate-catalog';
import { activateLocale, LANGUAGE_STORAGE_KEY, type Locale } from '../../../../src/lib/i18n';
import { renderWithApp } from '../../render';
import { clearToasts, failed, offline, ok, scripted, type Handler } from '../../support/api';
import { expectVisible } from '../../support/dom';
import { answer, CERTIFICATE_ID, KEY_SET, PAYLOAD, signed } from './fixtures';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../src/lib/api/client')>()),
  apiRequest: vi.fn(),
}));
vi.mock('../../../../src/lib/api/certificate-keys', () => ({ getCertificateKeys: vi.fn() }));

const api = vi.mocked(apiRequest);
const keys = vi.mocked(getCertificateKeys);
const CERTIFICATE_CALL = `public GET /certificates/${CERTIFICATE_ID}`;

function answering(handler: Handler) {
  api.mockImplementation(scripted({ [CERTIFICATE_CALL]: handler }));
}

/**
 * Opens /c/{segment}. The page's words are fetched first: a render that suspends inside Testing Library's
 * render (an act() it does not await) is never tried again, while the app's own render is.
 */
async function open(segment: string = CERTIFICATE_ID, locale: Locale = 'fr') {
  await activateLocale(locale);
  await useCertificateCatalog.preload();
  return renderWithApp(<Route path={paths.certificate} component={CertificatePage} />, {
    path: `/c/${segment}`,
    locale,
  });
}

/** Opens the page on a certificate the server answers with, and waits for its check. */
async function openOn(certificate: PublicCertificate, locale?: Locale) {
  answering(() => ok(certificate));
  await open(CERTIFICATE_ID, locale);
  return screen.findByTestId('certificate-verification');
}

const titleOf = (element: HTMLElement) => element.querySelector('.chakra-alert__title')?.textContent;

beforeEach(() => {
  api.mockReset();
  keys.mockReset();
  keys.mockResolvedValue({ code: 200, status: 'success', data: KEY_SET });
});
afterEach(() => {
  clearToasts();
  vi.restoreAllMocks();
});

describe('a certificate that verifies', () => {
  it('says "Signature vérifiée", with its number, vehicle, issuer and status', async () => {
    const verification = await openOn(answer());
    expect(titleOf(expectVisible(verification))).toBe('Signature vérifiée');
    expect(verification.dataset.outcome).toBe('verified');
    expect(screen.getByTestId('certificate-id').textContent).toBe(CERTIFICATE_ID);
    const status = screen.getByTestId('certificate-status');
    expect(status.dataset.status).toBe('valid');
    expect(titleOf(status)).toBe(`Valide jusqu’au ${formatDateTime(PAYLOAD.valid_until)}`);
    expect(screen.queryByTestId('certificate-newer-readings')).toBeNull();
    const page = document.querySelector('[data-certificate-page]')!;
    for (const fact of ['Renault Symbol', '2024', 'VF1S1CD16RB267735', 'KODE000001', 'Garage El Amel', 'Alger']) {
      expect(page.textContent).toContain(fact);
    }
    expect(api).toHaveBeenCalledWith('public', `/certificates/${CERTIFICATE_ID}`, expect.anything());
  });

  it('lists the readings in a buyer’s words, with their photo, garage and correction', async () => {
    await openOn(answer());
    const rows = within(screen.getByTestId('certificate-readings')).getAllByRole('row').slice(1);
    const cells = rows.map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
    expect(cells).toEqual([
      [
        formatDateTime('2026-03-01T09:30:00.000Z'),
        formatKm(120000, 'fr'),
        'Rien à comparer : premier relevé du compteur',
        'Sans photo',
        'Un autre garage',
      ],
      [
        formatDateTime('2026-04-02T10:00:00.000Z'),
        `${formatKm(126500, 'fr')}Correction (erreur de saisie) : remplace ${formatKm(12650, 'fr')}`,
        'Cohérent avec le relevé précédent',
        'Avec photo',
        'Ce garage',
      ],
      [
        formatDateTime('2026-04-20T10:00:00.000Z'),
        formatKm(98000, 'fr'),
        'Incohérent : le compteur a reculéTransmis plus de 5 jours après le relevé',
        'Sans photo',
        'Un autre garage',
      ],
    ]);
    expect(screen.getByRole('heading', { name: 'Relevés kilométriques' })).toBeTruthy();
    const chart = screen.getByRole('img', { name: /^Évolution du compteur : 3 relevés/ });
    expect(chart.querySelectorAll('[data-verdict="implausible"]')).toHaveLength(1);
  });

  it('shows a QR code of its address, and the number beside it', async () => {
    await openOn(answer());
    const address = `${window.location.origin}/c/${CERTIFICATE_ID}`;
    const qr = screen.getByTestId('certificate-qr');
    expect(within(qr).getByRole('img', { name: `QR code de ce certificat : ${address}` })).toBeTruthy();
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    expect(qr.querySelector('svg')?.dataset.value).toBe(address);
  });

  it('says how many readings arrived since it was issued', async () => {
    await openOn(answer({ newer_readings: 3 }));
    expect(titleOf(expectVisible(screen.getByTestId('certificate-newer-readings')))).toBe(
      'Des relevés plus récents existent depuis son émission (3)',
    );
  });

  it('says when its garage revoked it', async () => {
    const revokedAt = '2026-05-01T08:00:00.000Z';
    await openOn(answer({ status: 'revoked', revoked_at: revokedAt }));
    const status = screen.getByTestId('certificate-status');
    expect(status.dataset.status).toBe('revoked');
    expect(titleOf(status)).toBe(`Révoqué par le garage le ${formatDateTime(revokedAt)}`);
    expect(status.textContent).toContain('Le garage qui l’a émis l’a retiré : il ne vaut plus comme certificat.');
    // A revoked certificate still verifies: it is genuine, and withdrawn.
    expect(titleOf(screen.getByTestId('certificate-verification'))).toBe('Signature vérifiée');
  });

  it('says when it expired', async () => {
    await openOn(answer({ status: 'expired' }));
    expect(titleOf(screen.getByTestId('certificate-status'))).toBe(
      `Expiré depuis le ${formatDateTime(PAYLOAD.valid_until)}`,
    );
  });

  it('speaks Arabic to an Arabic reader', async () => {
    const verification = await openOn(answer(), 'ar');
    expect(titleOf(verification)).toBe('تم التحقق من التوقيع');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('شهادة عدد الكيلومترات');
  });
});

describe('a certificate that does not verify', () => {
  it('says plainly that one changed after signing is forged, and vouches for none of its readings', async () => {
    const certificate = signed();
    const [first, ...rest] = PAYLOAD.readings;
    const forged = { ...certificate, payload: { ...PAYLOAD, readings: [{ ...first!, km: 12000 }, ...rest] } };
    const verification = await openOn(answer({ certificate: forged }));
    expect(titleOf(expectVisible(verification))).toBe('Certificat falsifié : ne vous y fiez pas');
    expect(verification.getAttribute('role')).toBe('alert');
    expect(document.body.textContent).not.toContain('Signature vérifiée');
    expect(screen.getByRole('heading', { name: 'Relevés non garantis' })).toBeTruthy();
    expect(screen.getByTestId('certificate-readings').dataset.trusted).toBe('false');
    expect(screen.queryByRole('img', { name: /^Évolution du compteur/ })).toBeNull();
  });

  it('calls a key the portal does not publish unknown', async () => {
    const verification = await openOn(answer({ certificate: signed(PAYLOAD, 'another-key') }));
    expect(titleOf(verification)).toBe('Signature inconnue : ne vous y fiez pas');
    expect(keys.mock.calls.map(([options]) => options?.fresh)).toEqual([false, true]);
  });

  it('says the signature was not checked when the keys cannot be fetched, and checks again on Réessayer', async () => {
    keys.mockResolvedValueOnce(offline());
    const verification = await openOn(answer());
    expect(titleOf(verification)).toBe('Signature non vérifiée');
    await userEvent.click(within(verification).getByRole('button', { name: 'Réessayer' }));
    await waitFor(() => expect(titleOf(screen.getByTestId('certificate-verification'))).toBe('Signature vérifiée'));
  });
});

describe('a number no certificate has', () => {
  it('is said plainly when the server knows none', async () => {
    answering(() => failed(404, 'Certificat introuvable'));
    await open();
    const notFound = expectVisible(await screen.findByTestId('certificate-not-found'));
    expect(titleOf(notFound)).toBe('Aucun certificat ne porte ce numéro');
  });

  it('is said at once, without asking the server, when it cannot be an id', async () => {
    await open('not-a-certificate');
    expect(titleOf(await screen.findByTestId('certificate-not-found'))).toBe('Aucun certificat ne porte ce numéro');
    expect(api).not.toHaveBeenCalled();
  });

  it('is read as typed: lower case, no dashes, O for 0', async () => {
    answering(() => ok(answer()));
    await open('7k3m9qxd2f8rtn4w');
    expect(titleOf(await screen.findByTestId('certificate-verification'))).toBe('Signature vérifiée');
    expect(api).toHaveBeenCalledWith('public', `/certificates/${CERTIFICATE_ID}`, expect.anything());
  });
});

describe('a certificate that cannot be fetched', () => {
  it('says the server was not reached, and Réessayer fetches it', async () => {
    let calls = 0;
    answering(() => (++calls === 1 ? offline() : ok(answer())));
    await open();
    expect(within(expectVisible(screen.getByRole('status'))).getAllByLabelText('Chargement…')).toHaveLength(1);
    const alert = expectVisible(await screen.findByRole('alert'));
    expect(titleOf(alert)).toBe('Impossible de charger le certificat');
    expect(alert.textContent).toContain('Serveur injoignable : vérifiez la connexion et réessayez.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Réessayer' }));
    expect(titleOf(await screen.findByTestId('certificate-verification'))).toBe('Signature vérifiée');
  });

  it('says when this connection looked up too many', async () => {
    answering(() => failed(429, 'Trop de tentatives, veuillez réessayer plus tard'));
    await open();
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Trop de consultations depuis cette connexion : réessayez dans une minute.',
    );
  });
});

describe('the reader’s language', () => {
  it('is the browser’s when none was chosen here, and is not kept', async () => {
    // No choice stored: the language the test renders in is not kept either.
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => undefined);
    vi.spyOn(Storage.prototype, 'getItem').mockReturnValue(null);
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-GB', 'fr']);
    await openOn(answer());
    // Shown again in English once its words are here.
    await waitFor(() => expect(titleOf(screen.getByTestId('certificate-verification'))).toBe('Signature verified'));
    expect(document.documentElement.lang).toBe('en');
    expect(setItem).not.toHaveBeenCalledWith(LANGUAGE_STORAGE_KEY, 'en');
    expect(document.cookie).not.toContain(`${LANGUAGE_STORAGE_KEY}=en`);
  });

  it('shows the certificate in the reader’s language from its first paint, never in French first', async () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => undefined);
    vi.spyOn(Storage.prototype, 'getItem').mockReturnValue(null);
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ar-DZ']);
    // Its first appearance, not one after a change of language.
    const verification = await openOn(answer());
    expect(titleOf(verification)).toBe('تم التحقق من التوقيع');
    expect(document.documentElement.dir).toBe('rtl');
  });

  it('stays the one chosen here', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-GB']);
    const verification = await openOn(answer());
    expect(titleOf(verification)).toBe('Signature vérifiée');
  });
});
