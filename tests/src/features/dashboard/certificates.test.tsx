/**
 * The garage's side of mileage certificates: issued from the vehicle's timeline with the owner's consent,
 * never queued offline, listed on the timeline and in the History, and revoked there.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { CertificateSummary, IssuedCertificate, VehicleReading } from '../../../../contract';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { renderWithApp } from '../../render';
import { expectToast } from '../../support/api';
import { clio, fail, ok, setOnline, useDashboardSetting } from './support';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

const api = useDashboardSetting();
const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const READINGS: VehicleReading[] = [
  { odometer: 150_000, recorded_at: ago(DAY), verdict: 'plausible', reasons: [], own: true },
  { odometer: 140_000, recorded_at: ago(20 * DAY), verdict: 'no_verdict', reasons: [], own: false },
];

function summary(id: string, fields: Partial<CertificateSummary> = {}): CertificateSummary {
  return {
    id,
    kode_id: clio.kode_id,
    url: `/c/${id}`,
    issued_at: ago(2 * DAY),
    valid_until: ago(-58 * DAY),
    revoked_at: null,
    status: 'valid',
    readings_count: 2,
    ...fields,
  };
}

function issued(id: string): IssuedCertificate {
  const fields = summary(id, { issued_at: ago(0) });
  return {
    ...fields,
    certificate: {
      payload: {
        version: 1,
        id,
        vehicle: { kode_id: clio.kode_id, vin: clio.vin, brand: clio.brand, model: clio.name, year: clio.year },
        readings: [],
        issuer: { name: 'Garage El Amel', city: 'Alger' },
        issued_at: fields.issued_at,
        valid_until: fields.valid_until,
      },
      signature: 'c2lnbmF0dXJl',
      kid: 'key-1',
    },
  };
}

const certificateCalls = () => api.calls.filter((call) => call.includes('certificates'));

async function lookUp() {
  const user = userEvent.setup();
  api.on('GET /vehicles/KODE000001/readings', () => ok(READINGS));
  await renderWithApp(<DashboardPage />);
  await screen.findByRole('option', { name: 'Vidange' });
  await user.type(screen.getByLabelText(/Identifiant du véhicule/), 'KODE000001');
  await user.click(screen.getByRole('button', { name: 'Rechercher' }));
  const timeline = await screen.findByRole('region', { name: 'Relevés du véhicule' });
  return { user, timeline };
}

async function openCertificateDialog() {
  const { user, timeline } = await lookUp();
  await user.click(within(timeline).getByRole('button', { name: 'Certificat kilométrique' }));
  const dialog = await screen.findByRole('dialog', { name: 'Certificat kilométrique' });
  return { user, dialog };
}

describe('issuing a mileage certificate from the timeline', () => {
  it('asks for the owner’s consent, then issues it and hands over its link', async () => {
    api.on('GET /vehicles/KODE000001/certificates', () => ok([]));
    api.on('POST /vehicles/KODE000001/certificates', () => ok(issued('7K3M-9QXD-2F8R-TN4W'), 201));
    const { user, dialog } = await openCertificateDialog();
    await within(dialog).findByText('Aucun certificat émis pour ce véhicule.');

    await user.click(within(dialog).getByRole('button', { name: 'Émettre le certificat' }));
    expect(await within(dialog).findByText('Confirmez que le propriétaire a demandé le certificat')).toBeTruthy();
    expect(certificateCalls().filter((call) => call.includes('POST'))).toEqual([]);
    // The dialog's form is its own: the entry form around the timeline is neither sent nor checked.
    expect(dialog.isConnected).toBe(true);
    expect(screen.queryByText('Veuillez choisir un type de panne')).toBeNull();

    await user.click(
      within(dialog).getByRole('checkbox', { name: 'Le propriétaire du véhicule a demandé ce certificat.' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Émettre le certificat' }));
    const notice = await within(dialog).findByRole('status');
    await waitFor(() => expect(notice.textContent).toMatch(/Certificat 7K3M-9QXD-2F8R-TN4W émis/));
    expect(within(notice).getByRole('link', { name: 'Ouvrir le certificat' }).getAttribute('href')).toBe(
      `${window.location.origin}/c/7K3M-9QXD-2F8R-TN4W`,
    );
    expect(within(notice).getByRole('button', { name: /Partager/ })).toBeTruthy();
    expect(api.calls).toContain('partner POST /vehicles/KODE000001/certificates');
    // The earlier attempt without consent is not held against the next certificate.
    expect(within(dialog).queryByText('Confirmez que le propriétaire a demandé le certificat')).toBeNull();
    // Listed with the vehicle's certificates, and a second one asks for consent again.
    const list = within(dialog).getByRole('list', { name: 'Certificats émis pour ce véhicule' });
    expect(within(list).getByText('7K3M-9QXD-2F8R-TN4W')).toBeTruthy();
    expect(
      within(dialog).getByRole<HTMLInputElement>('checkbox', {
        name: 'Le propriétaire du véhicule a demandé ce certificat.',
      }).checked,
    ).toBe(false);
  });

  it('says so when the vehicle has no reading to certify', async () => {
    api.on('GET /vehicles/KODE000001/certificates', () => ok([]));
    api.on('POST /vehicles/KODE000001/certificates', () =>
      fail(422, 'Aucun relevé pour ce véhicule : pas de certificat', 'certificate_no_readings'),
    );
    const { user, dialog } = await openCertificateDialog();
    await user.click(
      within(dialog).getByRole('checkbox', { name: 'Le propriétaire du véhicule a demandé ce certificat.' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Émettre le certificat' }));
    expect(await within(dialog).findByText('Aucun relevé pour ce véhicule : pas de certificat')).toBeTruthy();
  });

  it('offline, the button says the server is needed and nothing is queued', async () => {
    const { user, timeline } = await lookUp();
    setOnline(false);
    const button = within(timeline).getByRole('button', { name: 'Certificat kilométrique' });
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(timeline).getByText('Connexion nécessaire')).toBeTruthy();
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Certificat kilométrique' });
    expect(within(dialog).getByText('Un certificat a besoin du serveur')).toBeTruthy();
    await user.click(
      within(dialog).getByRole('checkbox', { name: 'Le propriétaire du véhicule a demandé ce certificat.' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Émettre le certificat' }));
    expect(certificateCalls().filter((call) => call.includes('POST'))).toEqual([]);
  });
});

describe('the garage’s certificates in the History', () => {
  it('lists every certificate issued, and revokes one after a confirmation', async () => {
    const valid = summary('7K3M-9QXD-2F8R-TN4W');
    const old = summary('ABCD-EFGH-JKMN-PQRS', { kode_id: 'KODE000002', issued_at: ago(90 * DAY), status: 'expired' });
    api.on('GET /certificates', () => ok([valid, old]));
    api.on('DELETE /certificates/7K3M-9QXD-2F8R-TN4W', () =>
      ok({ ...valid, status: 'revoked', revoked_at: new Date().toISOString() }),
    );
    const user = userEvent.setup();
    await renderWithApp(<DashboardPage />);
    await user.click(screen.getAllByRole('tab')[1]!);
    const list = await screen.findByRole('list', { name: 'Certificats kilométriques émis' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first!.textContent).toMatch(/7K3M-9QXD-2F8R-TN4W.*Valide jusqu’au.*KODE000001.*2 relevés/);
    expect(second!.textContent).toMatch(/ABCD-EFGH-JKMN-PQRS.*Expiré le.*KODE000002/);
    expect(within(second!).queryByRole('button', { name: 'Révoquer' })).toBeNull();

    await user.click(within(first!).getByRole('button', { name: 'Révoquer' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Révoquer ce certificat ?' });
    await user.click(within(confirm).getByRole('button', { name: 'Révoquer' }));
    await expectToast({ type: 'success', title: 'Certificat révoqué : sa page le dit désormais.' });
    expect(api.calls).toContain('partner DELETE /certificates/7K3M-9QXD-2F8R-TN4W');
    await waitFor(() => expect(within(list).getAllByRole('listitem')[0]!.textContent).toMatch(/Révoqué le/));
  });

  it('offline, says the list shows once connected rather than that there is none', async () => {
    const user = userEvent.setup();
    await renderWithApp(<DashboardPage />);
    await user.click(screen.getAllByRole('tab')[1]!);
    expect(await screen.findByText('Les certificats émis s’affichent une fois la tablette connectée.')).toBeTruthy();
  });
});
