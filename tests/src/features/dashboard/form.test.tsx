import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { notify } from '../../../../src/components/ui/toaster';
import { db } from '../../../../src/lib/db';
import { renderWithApp } from '../../render';
import { expectToast, fieldErrorBeside, fieldErrorOf } from '../../support/api';
import { expectVisible } from '../../support/dom';
import { clio, fail, offline, ok, statisticTiles, useDashboardSetting } from './support';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

const api = useDashboardSetting();

const MESSAGES = {
  kode: 'Veuillez saisir un KODE ID valide',
  odometer: 'Veuillez saisir un kilometrage valide',
  type: 'Veuillez choisir un type de panne',
  consent: 'Veuillez confirmer les informations avant de soumettre',
};

async function renderDashboard() {
  const user = userEvent.setup();
  const view = await renderWithApp(<DashboardPage />);
  // The repair types arrive from the API (then IndexedDB).
  await screen.findByRole('option', { name: 'Vidange' });
  return { user, view };
}

const kodeInput = () => screen.getByLabelText(/Identifiant du véhicule/);
const odometerInput = () => screen.getByLabelText(/^Kilométrage/);
const typeSelect = () => screen.getByLabelText(/^Type de panne/);
const consentBox = () => screen.getByRole('checkbox', { name: /Je confirme/ });
const insertButton = () => screen.getByRole('button', { name: 'Insérer' });
const findButton = () => screen.getByRole('button', { name: 'Rechercher' });

/** The message under each field, as assistive technology finds it (null when the field is fine). */
function fieldErrors(): Record<keyof typeof MESSAGES, string | null> {
  return {
    kode: fieldErrorOf(kodeInput()),
    odometer: fieldErrorOf(odometerInput()),
    type: fieldErrorOf(typeSelect()),
    consent: fieldErrorBeside(consentBox()),
  };
}

async function fillValid(user: ReturnType<typeof userEvent.setup>, odometer = '120000') {
  await user.type(kodeInput(), 'kode000001');
  await user.selectOptions(typeSelect(), 'rt-oil');
  await user.type(odometerInput(), odometer);
  await user.click(consentBox());
}

describe('dashboard page', () => {
  it('shows the title, subtitle, statistics and three tabs with Add repair first', async () => {
    await renderDashboard();
    expect(screen.getAllByRole('heading', { level: 1 }).map((heading) => heading.textContent)).toEqual([
      'Tableau de bord – Partenaire Garage',
    ]);
    expectVisible(screen.getByText('Nouvelle saisie et historique des kilométrages.'));
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Nouvelle saisie', 'Historique', 'Conseils']);
    expect(tabs[0]?.getAttribute('aria-selected')).toBe('true');
    const stats = await screen.findByRole('region', { name: 'Statistiques' });
    expect(statisticTiles(stats)).toEqual({
      'Saisies au total': '1 234',
      'Saisies ce mois-ci': '56',
      Véhicules: '78',
      'Dernière saisie': expect.stringMatching(/^01\/03\/2025 \d\d:05$/),
      'Relevés invraisemblables': '3',
    });
  });

  it('hides the statistics when they cannot be fetched', async () => {
    api.on('GET /statistics', () => offline());
    await renderDashboard();
    expect(screen.queryByRole('region', { name: 'Statistiques' })).toBeNull();
  });
});

describe('dashboard form validation (docs/PRODUCT.md#validation-rules)', () => {
  it('shows every message on Insert with an empty form and sends nothing', async () => {
    const { user } = await renderDashboard();
    expect(screen.queryByText(MESSAGES.kode)).toBeNull();
    await user.click(insertButton());
    expect(fieldErrors()).toEqual(MESSAGES);
    expect(api.posted).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
    // The first field in error takes the focus.
    expect(document.activeElement).toBe(kodeInput());
    // One toast says how many fields need attention, and which, not the first one's message only.
    await expectToast({
      type: 'error',
      title: '4 champs à compléter : KODE ID, Type de panne, Kilométrage, Confirmation',
    });
  });

  it('names the fields in Arabic with the Arabic comma', async () => {
    const user = userEvent.setup();
    await renderWithApp(<DashboardPage />, { locale: 'ar' });
    await user.click(screen.getByRole('button', { name: 'إدراج' }));
    const toast = await screen.findByText(/يجب إكمالها/);
    expect(toast.textContent).toMatch(/^4 حقول يجب إكمالها: [^,]+، [^,]+، [^,]+، [^,]+$/);
  });

  it('names only the fields still to complete, in the singular for one', async () => {
    const { user } = await renderDashboard();
    await fillValid(user);
    await user.click(consentBox());
    await user.click(insertButton());
    await expectToast({ type: 'error', title: '1 champ à compléter : Confirmation' });
    expect(api.posted).toEqual([]);
  });

  it('validates each field on every change, with the exact French messages', async () => {
    const { user } = await renderDashboard();

    await user.type(kodeInput(), 'abc12');
    expect(kodeInput()).toHaveProperty('value', 'ABC12');
    await user.tab();
    expect(fieldErrors().kode).toBe(MESSAGES.kode);
    await user.type(kodeInput(), '34567');
    expect(screen.queryByText(MESSAGES.kode)).toBeNull();
    // Exactly 10 characters: the 11th is not taken.
    await user.type(kodeInput(), 'X');
    expect(kodeInput()).toHaveProperty('value', 'ABC1234567');

    await user.type(odometerInput(), '0');
    await user.tab();
    expect(fieldErrors().odometer).toBe(MESSAGES.odometer);
    await user.clear(odometerInput());
    await user.type(odometerInput(), '12a5');
    expect(odometerInput()).toHaveProperty('value', '125');
    expect(screen.queryByText(MESSAGES.odometer)).toBeNull();

    await user.selectOptions(typeSelect(), 'rt-oil');
    expect(screen.queryByText(MESSAGES.type)).toBeNull();
    await user.selectOptions(typeSelect(), '');
    expect(fieldErrors().type).toBe(MESSAGES.type);

    await user.click(consentBox());
    await user.click(consentBox());
    expect(fieldErrors().consent).toBe(MESSAGES.consent);
    await user.click(consentBox());
    expect(screen.queryByText(MESSAGES.consent)).toBeNull();
  });

  it.each([
    ['kode', { kode: 'KODE00001' }],
    ['odometer', { odometer: '0' }],
    ['type', { type: '' }],
    ['consent', { consent: false }],
  ] as const)('sends nothing while the %s field is wrong', async (field, override) => {
    const { user } = await renderDashboard();
    const values = { kode: 'KODE000001', odometer: '120000', type: 'rt-oil', consent: true, ...override };
    await user.type(kodeInput(), values.kode);
    if (values.type) await user.selectOptions(typeSelect(), values.type);
    await user.type(odometerInput(), values.odometer);
    if (values.consent) await user.click(consentBox());
    await user.click(insertButton());
    expect(fieldErrors()).toEqual({ kode: null, odometer: null, type: null, consent: null, [field]: MESSAGES[field] });
    expect(screen.getAllByText(new RegExp(Object.values(MESSAGES).join('|')))).toHaveLength(1);
    expect(api.posted).toEqual([]);
    expect(api.calls.filter((call) => call.includes('/vehicles/'))).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('vehicle lookup', () => {
  it('Find with an invalid identifier shows the message as an error toast, without calling the API', async () => {
    const { user } = await renderDashboard();
    await user.type(kodeInput(), 'KODE1');
    await user.click(findButton());
    await expectToast({ type: 'error', title: MESSAGES.kode });
    expect(api.calls.filter((call) => call.includes('/vehicles/'))).toEqual([]);
  });

  it('fills the four read-only fields and announces vehicle_found', async () => {
    const { user } = await renderDashboard();
    await user.type(kodeInput(), 'KODE000001');
    await user.click(findButton());
    await expectToast({ type: 'success', title: 'Véhicule trouvé' });
    expect(screen.getByLabelText('VIN')).toHaveProperty('value', clio.vin);
    expect(screen.getByLabelText('Modèle')).toHaveProperty('value', 'Clio');
    expect(screen.getByLabelText('Marque')).toHaveProperty('value', 'Renault');
    expect(screen.getByLabelText('Année')).toHaveProperty('value', '2019');
    expect(screen.getByLabelText('VIN')).toHaveProperty('readOnly', true);
    // Cached for offline use.
    expect(await db.vehicles.get(['partner-1', 'KODE000001'])).toMatchObject({ vin: clio.vin });
    // Changing the identifier clears them.
    await user.type(kodeInput(), '{backspace}');
    expect(screen.getByLabelText('VIN')).toHaveProperty('value', '');
  });

  it('Enter in the identifier field runs Find', async () => {
    const { user } = await renderDashboard();
    await user.type(kodeInput(), 'KODE000001{Enter}');
    await expectToast({ type: 'success', title: 'Véhicule trouvé' });
    expect(api.posted).toEqual([]);
  });

  it('an unknown vehicle: the server message in an error toast', async () => {
    api.on('GET /vehicles/KODE999999', () => fail(404, 'Véhicule introuvable', 'vehicle_not_found'));
    const { user } = await renderDashboard();
    await user.type(kodeInput(), 'KODE999999');
    await user.click(findButton());
    await expectToast({ type: 'error', title: 'Véhicule introuvable' });
    expect(screen.getByLabelText('VIN')).toHaveProperty('value', '');
  });

  it('offline, a vehicle looked up before comes from the tablet', async () => {
    const { user } = await renderDashboard();
    await user.type(kodeInput(), 'KODE000001');
    await user.click(findButton());
    await screen.findByText('Véhicule trouvé');
    api.on('GET /vehicles/KODE000001', () => offline());
    const successes = vi.spyOn(notify, 'success');
    await user.clear(kodeInput());
    await user.type(kodeInput(), 'KODE000001');
    await user.click(findButton());
    expectVisible(await screen.findByText(/informations du véhicule enregistrées sur la tablette/));
    expect(screen.getByLabelText('Modèle')).toHaveProperty('value', 'Clio');
    // The note alone: no green "Véhicule trouvé" beside "Hors connexion".
    expect(successes).not.toHaveBeenCalled();
    successes.mockRestore();
  });

  it('offline, an unknown vehicle can still be recorded and is checked later', async () => {
    api.on('GET /vehicles/KODE000777', () => offline());
    api.on('POST /repairs', () => offline());
    const { user } = await renderDashboard();
    await user.type(kodeInput(), 'KODE000777');
    await user.click(findButton());
    expectVisible(await screen.findByText(/ce véhicule n'a pas encore été consulté sur cette tablette/));
    expectVisible(screen.getByText(/le véhicule sera vérifié dès que la tablette sera de nouveau connectée/));
    await user.selectOptions(typeSelect(), 'rt-oil');
    await user.type(odometerInput(), '5000');
    await user.click(consentBox());
    await user.click(insertButton());
    await expectToast({
      type: 'success',
      title: 'Opération réussie',
      description: 'Saisie enregistrée sur la tablette, elle sera envoyée dès le retour de la connexion.',
    });
    const [queued] = await db.outbox.toArray();
    expect(queued).toMatchObject({
      partnerId: 'partner-1',
      state: 'queued',
      entry: { kode_id: 'KODE000777', vin: null },
    });
  });
});

describe('Insert', () => {
  it('stores online: Idempotency-Key, recorded_at, success toast, form reset', async () => {
    const { user } = await renderDashboard();
    await user.type(kodeInput(), 'KODE000001');
    await user.click(findButton());
    await screen.findByText('Véhicule trouvé');
    await user.selectOptions(typeSelect(), 'rt-oil');
    await user.type(odometerInput(), '120000');
    await user.click(consentBox());
    await user.click(insertButton());
    await expectToast({ type: 'success', title: 'Opération réussie', description: 'La saisie a été enregistrée.' });
    expect(api.posted).toHaveLength(1);
    const [posted] = api.posted;
    expect(posted?.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(posted?.body).toMatchObject({
      kode_id: 'KODE000001',
      odometer: 120000,
      repair_type_id: 'rt-oil',
      consented: true,
      note: '',
      vin: clio.vin,
      brand: 'Renault',
      model: 'Clio',
      year: 2019,
    });
    expect(Date.now() - Date.parse(String(posted?.body.recorded_at))).toBeLessThan(60_000);
    await waitFor(() => expect(kodeInput()).toHaveProperty('value', ''));
    expect(odometerInput()).toHaveProperty('value', '');
    expect(typeSelect()).toHaveProperty('value', '');
    expect(consentBox()).toHaveProperty('checked', false);
    expect(screen.queryByText(MESSAGES.kode)).toBeNull();
    expect(await db.outbox.count()).toBe(0);
    expect(await db.history.count()).toBe(1);
  });

  it('after Insert, the emptied form says nothing when the mechanic taps elsewhere, and the page is at its top', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const { user } = await renderDashboard();
    await fillValid(user);
    await user.click(insertButton());
    await expectToast({ type: 'success', title: 'Opération réussie', description: 'La saisie a été enregistrée.' });
    await waitFor(() => expect(kodeInput()).toHaveProperty('value', ''));
    // The focus waits in the identifier for the next vehicle, without scrolling the page to it.
    expect(document.activeElement).toBe(kodeInput());
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'instant' });
    await user.click(screen.getByRole('tab', { name: 'Historique' }));
    await user.click(screen.getByRole('tab', { name: 'Nouvelle saisie' }));
    expect(fieldErrors()).toEqual({ kode: null, odometer: null, type: null, consent: null });
    // Typing again brings the rule back on every change.
    await user.type(kodeInput(), 'KODE1');
    await user.tab();
    expect(fieldErrors().kode).toBe(MESSAGES.kode);
    scrollTo.mockRestore();
  });

  it('looks the vehicle up itself when Insert comes before Find', async () => {
    const { user } = await renderDashboard();
    await fillValid(user);
    await user.click(insertButton());
    await expectToast({ type: 'success', title: 'Opération réussie', description: 'La saisie a été enregistrée.' });
    expect(api.posted[0]?.body).toMatchObject({ vin: clio.vin, model: 'Clio' });
  });

  it('asks first when the VIN read off the car is another vehicle’s; going back leads to the VIN field', async () => {
    const { user } = await renderDashboard();
    await user.type(kodeInput(), 'KODE000001');
    await user.click(findButton());
    await screen.findByText('Véhicule trouvé');
    const vinCheck = await screen.findByLabelText('Vérification du VIN');
    await user.type(vinCheck, 'VF1RJA00000000002');
    await user.selectOptions(typeSelect(), 'rt-oil');
    await user.type(odometerInput(), '120000');
    await user.click(consentBox());
    await user.click(insertButton());
    const question = await screen.findByRole('alertdialog', { name: 'Vérifiez le VIN' });
    await user.click(within(question).getByRole('button', { name: 'Revenir à la saisie' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.posted).toEqual([]);
    await waitFor(() => expect(document.activeElement).toBe(vinCheck));

    await user.click(insertButton());
    const again = await screen.findByRole('alertdialog', { name: 'Vérifiez le VIN' });
    await user.click(within(again).getByRole('button', { name: 'Enregistrer quand même' }));
    await expectToast({ type: 'success', title: 'Opération réussie', description: 'La saisie a été enregistrée.' });
    expect(api.posted).toHaveLength(1);
    // Two questions and the VIN field's own code: longer than one Insert.
  }, 30_000);

  it('offline: kept on the tablet, and the toast says so', async () => {
    api.on('GET /vehicles/KODE000001', () => offline());
    api.on('POST /repairs', () => offline());
    const { user } = await renderDashboard();
    await fillValid(user);
    await user.click(insertButton());
    await expectToast({
      type: 'success',
      title: 'Opération réussie',
      description: 'Saisie enregistrée sur la tablette, elle sera envoyée dès le retour de la connexion.',
    });
    expect(await db.outbox.count()).toBe(1);
    await user.click(screen.getByRole('tab', { name: 'Historique' }));
    expectVisible(await screen.findByText('En attente'));
  });

  it('a refusal at once: the server message in an error toast, the form kept, nothing left queued', async () => {
    api.on('POST /repairs', () =>
      fail(400, 'La date de saisie est trop ancienne ou dans le futur', 'recorded_at_out_of_range'),
    );
    const { user } = await renderDashboard();
    await fillValid(user);
    await user.click(insertButton());
    await expectToast({ type: 'error', title: 'La date de saisie est trop ancienne ou dans le futur' });
    expect(kodeInput()).toHaveProperty('value', 'KODE000001');
    expect(odometerInput()).toHaveProperty('value', '120000');
    await waitFor(async () => expect(await db.outbox.count()).toBe(0));
  });

  describe('odometer plausibility (docs/PRODUCT.md#odometer-plausibility)', () => {
    beforeEach(() => {
      api.on('GET /vehicles/KODE000001', () =>
        ok({ ...clio, last_odometer: 150_000, last_odometer_at: new Date(Date.now() - 10 * 86_400_000).toISOString() }),
      );
    });

    it('a lower reading asks first; going back sends nothing', async () => {
      const { user } = await renderDashboard();
      await fillValid(user, '100000');
      await user.click(insertButton());
      const dialog = await screen.findByRole('alertdialog', { name: 'Vérifiez le kilométrage' });
      expectVisible(within(dialog).getByText(/inférieur au dernier relevé connu/));
      expectVisible(within(dialog).getByText(/150\s000 km/));
      expectVisible(within(dialog).getByText(/100\s000 km/));
      await user.click(within(dialog).getByRole('button', { name: 'Revenir à la saisie' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      expect(api.posted).toEqual([]);
      expect(await db.outbox.count()).toBe(0);
      expect(odometerInput()).toHaveProperty('value', '100000');
      // Back where the reading is corrected.
      await waitFor(() => expect(document.activeElement).toBe(odometerInput()));
    });

    it('an implausibly high reading asks first; confirming sends it', async () => {
      const { user } = await renderDashboard();
      // 10 days × 1,500 km/day = 15,000 km at most.
      await fillValid(user, '170000');
      await user.click(insertButton());
      const dialog = await screen.findByRole('alertdialog');
      expectVisible(within(dialog).getByText(/anormalement élevé/));
      await user.click(within(dialog).getByRole('button', { name: 'Confirmer le kilométrage' }));
      await expectToast({ type: 'success', title: 'Opération réussie', description: 'La saisie a été enregistrée.' });
      expect(api.posted).toHaveLength(1);
    });

    it('a plausible reading goes straight through', async () => {
      const { user } = await renderDashboard();
      await fillValid(user, '155000');
      await user.click(insertButton());
      await expectToast({ type: 'success', title: 'Opération réussie', description: 'La saisie a été enregistrée.' });
      expect(screen.queryByRole('alertdialog')).toBeNull();
    });

    it("counts this vehicle's readings still queued on the tablet", async () => {
      api.on('POST /repairs', () => offline());
      const { user } = await renderDashboard();
      await fillValid(user, '160000');
      await user.click(insertButton());
      await screen.findByText('Opération réussie');
      await fillValid(user, '155000');
      await user.click(insertButton());
      const dialog = await screen.findByRole('alertdialog');
      expectVisible(within(dialog).getByText(/160\s000 km/));
    });
  });
});

describe('advices tab', () => {
  it('gives the five steps in order and the three tips', async () => {
    const { user } = await renderDashboard();
    await user.click(screen.getByRole('tab', { name: 'Conseils' }));
    const panel = await screen.findByRole('tabpanel');
    const [steps, tips] = await within(panel).findAllByRole('list');
    const stepTexts = within(steps!)
      .getAllByRole('listitem')
      .map((item) => item.textContent ?? '');
    expect(steps?.tagName).toBe('OL');
    expect(stepTexts).toHaveLength(5);
    expect(stepTexts[0]).toMatch(/identifiant du véhicule.*Rechercher/);
    expect(stepTexts[1]).toMatch(/récupérées et affichées automatiquement/);
    expect(stepTexts[2]).toMatch(/type d'intervention : réparation, relevé de kilométrage, vidange, etc\./);
    expect(stepTexts[3]).toMatch(/kilométrage actuel.*vérifiez-le attentivement/);
    // Permanent once sent, as the spec says, and how a mistake is put right (History offers Corriger).
    expect(stepTexts[4]).toMatch(/« Insérer » : le relevé envoyé est permanent, vérifiez-le avant\./);
    expect(stepTexts[4]).toMatch(/Une erreur se corrige dans les 7 jours depuis l'historique \(« Corriger »\)/);
    expect(stepTexts[4]).toMatch(/la correction s'ajoute au relevé d'origine, qui reste visible/);
    expect(stepTexts[4]).not.toMatch(/ne peut plus être modifiée/);
    const tipTexts = within(tips!)
      .getAllByRole('listitem')
      .map((item) => item.textContent ?? '');
    expect(tipTexts).toHaveLength(3);
    expect(tipTexts[0]).toMatch(/VIN/);
    expect(tipTexts[1]).toMatch(/Relisez/);
    expect(tipTexts[2]).toMatch(/Ne partagez pas l'accès à votre compte/);
  });
});
