/** The vehicle's timeline after a lookup, verdicts in the history, and corrections of stored entries. */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CORRECTION_WINDOW_MS, type RepairRecord, type VehicleReading } from '../../../../contract';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { db } from '../../../../src/lib/db';
import { photoRow } from '../../../support/photos';
import { renderWithApp } from '../../render';
import { expectToast } from '../../support/api';
import { expectVisible } from '../../support/dom';
import { repairRecord } from '../../../support/records';
import { clio, offline, ok, partner, queuedEntry, repairTypes, setOnline, useDashboardSetting } from './support';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

const api = useDashboardSetting();
const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function stored(
  id: string,
  fields: Partial<RepairRecord> & Pick<RepairRecord, 'odometer' | 'recorded_at'>,
): RepairRecord {
  return repairRecord({
    id,
    vehicle: { kode_id: clio.kode_id, vin: clio.vin, brand: clio.brand, name: clio.name, year: clio.year },
    repair_type: repairTypes[0]!,
    idempotency_key: `key-${id}`,
    ...fields,
  });
}

const IMPLAUSIBLE = stored('00000000-0000-4000-8000-00000000000a', {
  odometer: 90_000,
  recorded_at: ago(2 * DAY),
  created_at: ago(2 * DAY),
  verdict: 'implausible',
  reasons: ['lower_than_previous'],
  odometer_anomaly: true,
});
const REPLACED = stored('00000000-0000-4000-8000-00000000000b', {
  odometer: 12_000,
  recorded_at: ago(3 * DAY),
  created_at: ago(3 * DAY),
  verdict: 'no_verdict',
  superseded_by: '00000000-0000-4000-8000-00000000000c',
});
const CORRECTION = stored('00000000-0000-4000-8000-00000000000c', {
  odometer: 120_000,
  recorded_at: ago(3 * DAY),
  created_at: ago(3 * DAY - 60_000),
  verdict: 'plausible',
  corrects: REPLACED.id,
  correction_reason: 'typo',
});
const OLD = stored('00000000-0000-4000-8000-00000000000d', {
  odometer: 100_000,
  recorded_at: ago(30 * DAY),
  created_at: ago(30 * DAY),
  verdict: 'plausible',
});

/** The stored correction the server answers with: the body's fields, as POST /repairs stores them. */
function storeCorrection(options: { body?: unknown; headers?: Record<string, string> }) {
  const body = options.body as { odometer: number; recorded_at: string; corrects?: string; correction_reason?: never };
  return ok(
    stored('00000000-0000-4000-8000-0000000000ee', {
      odometer: body.odometer,
      recorded_at: body.recorded_at,
      corrects: body.corrects ?? null,
      correction_reason: body.correction_reason ?? null,
      idempotency_key: options.headers?.['Idempotency-Key'] ?? '',
    }),
    201,
  );
}

async function openHistory() {
  const user = userEvent.setup();
  await renderWithApp(<DashboardPage />);
  await screen.findByRole('option', { name: 'Vidange' });
  await user.click(screen.getByRole('tab', { name: 'Historique' }));
  return user;
}

/** The history row of a reading, found by its km as shown ("90 000", the space a narrow one in French). */
function rowOf(odometerText: string): HTMLElement {
  // The cell starts with the reading; its photo's thumbnail and state may follow.
  const km = new RegExp(`^${odometerText.replace(' ', '\\s')}\\skm`);
  const row = within(screen.getByRole('table'))
    .getAllByRole('row')
    .find((candidate) =>
      within(candidate)
        .queryAllByRole('cell')
        .some((cell) => km.test(cell.textContent ?? '')),
    );
  if (!row) throw new Error(`No row with ${odometerText}`);
  return row;
}

describe('verdicts in the history', () => {
  it('shows each verdict and its reasons, replaced entries, corrections, and until when an entry can be corrected', async () => {
    api.on('GET /repairs', () => ok([IMPLAUSIBLE, CORRECTION, REPLACED, OLD]));
    await openHistory();
    await screen.findByText('Invraisemblable');
    const implausible = rowOf('90 000');
    expect(implausible.textContent).toContain('Inférieur au relevé précédent');
    expect(implausible.textContent).toMatch(/Corrigeable jusqu’au/);
    expectVisible(within(implausible).getByRole('button', { name: 'Corriger le relevé KODE000001' }));

    const replaced = rowOf('12 000');
    expect(replaced.textContent).toContain('Remplacée par une correction');
    expect(replaced.textContent).not.toMatch(/Premier relevé|Pas de comparaison/);
    expect(within(replaced).queryByRole('button', { name: /Corriger/ })).toBeNull();

    const correction = rowOf('120 000');
    expect(correction.textContent).toContain('Plausible');
    expect(correction.textContent).toContain('Correction : Erreur de saisie');

    // Stored 30 days ago: past the 7-day window, nothing to offer.
    const old = rowOf('100 000');
    expect(old.textContent).toContain('Plausible');
    expect(old.textContent).not.toMatch(/Corrigeable/);
    expect(within(old).queryByRole('button', { name: /Corriger/ })).toBeNull();
  });

  it('says beside its verdict that a reading has a photo, an implausible one in the verdict’s colour', async () => {
    const photo = (id: string) => ({
      url: `/api/partner/repairs/${id}/photo`,
      bytes: 120_000,
      width: 1600,
      height: 900,
    });
    api.on('GET /repairs', () =>
      ok([{ ...IMPLAUSIBLE, photo: photo(IMPLAUSIBLE.id) }, { ...OLD, photo: photo(OLD.id) }, CORRECTION]),
    );
    await openHistory();
    await screen.findByText('Invraisemblable');
    const implausible = rowOf('90 000');
    const evidence = await within(implausible).findByText('Photo à l’appui du relevé');
    expect(evidence.closest('[data-photo-mark]')?.getAttribute('data-photo-mark')).toBe('evidence');
    expect(within(rowOf('100 000')).getByText('Avec photo du compteur')).toBeTruthy();
    // Without a photo, nothing is said of one.
    expect(rowOf('120 000').querySelector('[data-photo-mark]')).toBeNull();
  });

  it('corrects a stored entry with a reason, keeping the moment of the reading; the original shows replaced', async () => {
    api.on('GET /repairs', () => ok([IMPLAUSIBLE]));
    api.on('POST /repairs', (options) => storeCorrection(options));
    const user = await openHistory();
    await user.click(await screen.findByRole('button', { name: 'Corriger le relevé KODE000001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Corriger la saisie KODE000001' });
    const until = new Date(Date.parse(IMPLAUSIBLE.created_at) + CORRECTION_WINDOW_MS);
    expect(dialog.textContent).toContain('La saisie d’origine est conservée');
    expect(dialog.textContent).toContain(String(until.getFullYear()));
    // The vehicle stays unless the vehicle was wrong.
    expect(within(dialog).getByLabelText(/Identifiant du véhicule/)).toHaveProperty('readOnly', true);

    await user.click(within(dialog).getByRole('checkbox', { name: /Je confirme/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer la correction' }));
    expectVisible(await within(dialog).findByText('Choisissez le motif de la correction'));
    expect(api.posted).toEqual([]);

    await user.selectOptions(within(dialog).getByLabelText(/Motif de la correction/), 'typo');
    const odometer = within(dialog).getByLabelText(/Kilométrage/);
    await user.clear(odometer);
    await user.type(odometer, '190000');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer la correction' }));
    await expectToast({ type: 'success', title: 'Opération réussie', description: 'La saisie a été enregistrée.' });
    expect(api.posted).toHaveLength(1);
    expect(api.posted[0]?.body).toMatchObject({
      kode_id: 'KODE000001',
      odometer: 190_000,
      corrects: IMPLAUSIBLE.id,
      correction_reason: 'typo',
      recorded_at: IMPLAUSIBLE.recorded_at,
      // The same vehicle: the entry carries what the tablet showed of it, its model under `model`.
      vin: clio.vin,
      brand: clio.brand,
      model: clio.name,
      year: clio.year,
    });
    await waitFor(() => expect(rowOf('90 000').textContent).toContain('Remplacée par une correction'));
    expect(rowOf('190 000').textContent).toContain('Correction : Erreur de saisie');
    const original = await db.history.get(IMPLAUSIBLE.id);
    expect(original).toMatchObject({ superseded_by: '00000000-0000-4000-8000-0000000000ee', verdict: 'no_verdict' });
  });

  it('queues a correction offline like any entry, and shows the original waiting for it', async () => {
    api.on('GET /repairs', () => ok([IMPLAUSIBLE]));
    const user = await openHistory();
    await screen.findByText('Invraisemblable');
    setOnline(false);
    api.on('POST /repairs', () => offline());
    await user.click(screen.getByRole('button', { name: 'Corriger le relevé KODE000001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Corriger la saisie KODE000001' });
    await user.selectOptions(within(dialog).getByLabelText(/Motif de la correction/), 'miles_as_km');
    // 90,000 miles are 144,841 km: offered, and the mechanic may still adjust it.
    expect(within(dialog).getByLabelText(/Kilométrage/)).toHaveProperty('value', '144841');
    await user.click(within(dialog).getByRole('checkbox', { name: /Je confirme/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer la correction' }));
    await waitFor(() => expect(rowOf('90 000').textContent).toContain('Correction en attente d’envoi'));
    expect(within(rowOf('90 000')).queryByRole('button', { name: /Corriger/ })).toBeNull();
    const [queued] = await db.outbox.toArray();
    expect(queued?.entry).toMatchObject({
      odometer: 144_841,
      corrects: IMPLAUSIBLE.id,
      correction_reason: 'miles_as_km',
      recorded_at: IMPLAUSIBLE.recorded_at,
    });
    expect(rowOf('144 841').textContent).toContain('Correction : Miles saisis comme kilomètres');
  });

  it('keeps a refused correction a correction of the same repair when it is sent again', async () => {
    await db.outbox.add(
      queuedEntry('00000000-0000-4000-8000-000000000077', 1, 'refused', IMPLAUSIBLE.recorded_at, 91_000, {
        entry: {
          ...queuedEntry('x', 1, 'refused', IMPLAUSIBLE.recorded_at, 91_000).entry,
          corrects: IMPLAUSIBLE.id,
          correction_reason: 'typo',
        },
        lastError: { code: 400, message: 'Veuillez saisir un kilometrage valide' },
      }),
    );
    const user = await openHistory();
    await user.click(await screen.findByRole('button', { name: 'Corriger la saisie KODE000001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Corriger la saisie' });
    await waitFor(() => expect(within(dialog).getByLabelText(/Type de panne/)).toHaveProperty('value', 'rt-brakes'));
    await user.click(within(dialog).getByRole('checkbox', { name: /Je confirme/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Renvoyer' }));
    await waitFor(() => expect(api.posted).toHaveLength(1));
    expect(api.posted[0]?.body).toMatchObject({ corrects: IMPLAUSIBLE.id, correction_reason: 'typo' });
  });
});

describe("the vehicle's timeline", () => {
  const readings: VehicleReading[] = [
    { odometer: 150_000, recorded_at: ago(1 * DAY), verdict: 'plausible', reasons: [], own: false },
    {
      odometer: 60_000,
      recorded_at: ago(5 * DAY),
      verdict: 'implausible',
      reasons: ['lower_than_previous'],
      own: false,
    },
    { odometer: 140_000, recorded_at: ago(20 * DAY), verdict: 'no_verdict', reasons: [], own: true },
  ];

  async function find(user: ReturnType<typeof userEvent.setup>) {
    await user.type(screen.getByLabelText(/Identifiant du véhicule/), 'KODE000001');
    await user.click(screen.getByRole('button', { name: 'Rechercher' }));
  }

  async function renderForm() {
    const user = userEvent.setup();
    await renderWithApp(<DashboardPage />);
    await screen.findByRole('option', { name: 'Vidange' });
    return user;
  }

  it('shows every garage’s readings after a lookup, as a chart and a list with verdicts, queued entries included', async () => {
    api.on('GET /vehicles/KODE000001/readings', () => ok(readings));
    // The entry stays queued: the server is not reached.
    api.on('POST /repairs', () => offline());
    await db.outbox.add(queuedEntry('00000000-0000-4000-8000-000000000088', 1, 'queued', ago(DAY / 2), 151_000));
    const user = await renderForm();
    await find(user);
    const section = await screen.findByRole('region', { name: 'Relevés du véhicule' });
    const chart = await within(section).findByRole('img', { name: /Évolution du compteur : 4 relevés/ });
    expect(chart.querySelectorAll('[data-verdict]')).toHaveLength(4);
    expect(chart.querySelectorAll('[data-queued]')).toHaveLength(1);
    const items = within(within(section).getByRole('list', { name: 'Derniers relevés' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/151\s000.*Plausible.*Votre garage.*En attente d’envoi/),
      expect.stringMatching(/150\s000.*Plausible.*Autre garage/),
      expect.stringMatching(/60\s000.*Invraisemblable.*Autre garage.*Inférieur au relevé précédent/),
      // Nothing before it to compare with: the vehicle's first reading, said so.
      expect.stringMatching(/140\s000.*Premier relevé.*Votre garage/),
    ]);
    expect(section.textContent).toMatch(/Relevés de tous les garages au/);
  });

  it('marks the readings that have a photo: on the server, or still on this tablet with a queued entry', async () => {
    const [newest, implausible, own] = readings as [VehicleReading, VehicleReading, VehicleReading];
    api.on('GET /vehicles/KODE000001/readings', () => ok([newest, { ...implausible, has_photo: true }, own]));
    api.on('POST /repairs', () => offline());
    const key = '00000000-0000-4000-8000-000000000089';
    await db.outbox.add(queuedEntry(key, 1, 'queued', ago(DAY / 2), 151_000));
    await db.photos.add(photoRow(key, partner.id));
    const user = await renderForm();
    await find(user);
    const section = await screen.findByRole('region', { name: 'Relevés du véhicule' });
    const list = await within(section).findByRole('list', { name: 'Derniers relevés' });
    await within(list).findByText('Photo à l’appui du relevé');
    const items = within(list).getAllByRole('listitem');
    expect(
      items.map((item) => item.querySelector('[data-photo-mark]')?.getAttribute('data-photo-mark') ?? null),
    ).toEqual(['photo', null, 'evidence', null]);
    expect(items[0]?.textContent).toMatch(/151\s000.*Avec photo du compteur/);
  });

  /** The timeline a lookup shows for these readings: its section and the text of each line of its list. */
  async function timelineOf(shown: VehicleReading[]) {
    api.on('GET /vehicles/KODE000001/readings', () => ok(shown));
    await find(await renderForm());
    const section = await screen.findByRole('region', { name: 'Relevés du véhicule' });
    const list = await within(section).findByRole('list', { name: 'Derniers relevés' });
    return {
      section,
      lines: within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    };
  }

  it('says a single reading in words, without a chart whose axes would repeat it', async () => {
    const { section, lines } = await timelineOf([readings[2]!]);
    expect(lines).toEqual([expect.stringMatching(/140\s000 km.*Premier relevé.*Votre garage/)]);
    expect(within(section).queryByRole('img')).toBeNull();
  });

  it('after an odometer replacement, a reading with nothing to compare with says so, not "first"', async () => {
    const replacedOdometer: VehicleReading = { ...readings[2]!, odometer: 12_000, recorded_at: ago(2 * DAY) };
    const { lines } = await timelineOf([replacedOdometer, readings[1]!, readings[2]!]);
    expect(lines).toEqual([
      expect.stringMatching(/12\s000 km.*Pas de comparaison/),
      expect.stringMatching(/60\s000 km.*Invraisemblable/),
      expect.stringMatching(/140\s000 km.*Premier relevé/),
    ]);
  });

  it('keeps the timeline for offline use like the lookup', async () => {
    api.on('GET /vehicles/KODE000001/readings', () => ok(readings));
    const first = await renderForm();
    await find(first);
    await screen.findByRole('img', { name: /3 relevés/ });
    cleanup();
    api.on('GET /vehicles/KODE000001', () => offline());
    api.on('GET /vehicles/KODE000001/readings', () => offline());
    const user = await renderForm();
    await find(user);
    expectVisible(await screen.findByRole('img', { name: /3 relevés/ }));
  });

  it('warns before Insert against the latest reading of any garage, by the stored rules', async () => {
    api.on('GET /vehicles/KODE000001/readings', () => ok(readings));
    const user = await renderForm();
    await find(user);
    await screen.findByRole('img', { name: /3 relevés/ });
    await user.selectOptions(screen.getByLabelText(/Type de panne/), 'rt-oil');
    await user.type(screen.getByLabelText(/Kilométrage/), '149900');
    await user.click(screen.getByRole('checkbox', { name: /Je confirme/ }));
    await user.click(screen.getByRole('button', { name: 'Insérer' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Vérifiez le kilométrage' });
    expect(dialog.textContent).toContain('inférieur au dernier relevé connu');
    expect(dialog.textContent).toMatch(/150\s000/);
    expect(api.posted).toEqual([]);
  });
});
