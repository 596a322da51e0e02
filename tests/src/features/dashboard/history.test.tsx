import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RepairRecord } from '../../../../contract';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { db } from '../../../../src/lib/db';
import { renderWithApp } from '../../render';
import { expectToast, fieldErrorBeside } from '../../support/api';
import { expectVisible } from '../../support/dom';
import { clio, offline, ok, partner, queuedEntry, repairTypes, setOnline, useDashboardSetting } from './support';
import { repairRecord } from '../../../support/records';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

const api = useDashboardSetting();

function record(n: number, recordedAt: string, odometer: number): RepairRecord {
  return repairRecord({
    id: `repair-${n}`,
    vehicle: { kode_id: `KODE00000${n % 10}`, vin: clio.vin, brand: clio.brand, name: clio.name, year: clio.year },
    repair_type: repairTypes[n % 2]!,
    odometer,
    recorded_at: recordedAt,
    idempotency_key: `key-${n}`,
  });
}

const KEY_REJECTED = '00000000-0000-4000-8000-000000000003';

async function openHistory(options: { locale?: 'fr' | 'ar' } = {}) {
  const user = userEvent.setup();
  await renderWithApp(<DashboardPage />, options);
  await user.click(screen.getAllByRole('tab')[1]!);
  return user;
}

function bodyRows() {
  const table = screen.getByRole('table');
  return within(table).getAllByRole('row').slice(1);
}

function rowWithStatus(status: string): HTMLElement {
  const row = bodyRows().find((candidate) => candidate.getAttribute('data-status') === status);
  if (!row) throw new Error(`no ${status} row`);
  return row;
}

/** A row's cells as the mechanic reads them. */
function cellTexts(row: HTMLElement): string[] {
  return within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent ?? '');
}

describe('history tab', () => {
  it('says so when there is nothing yet', async () => {
    await openHistory();
    expectVisible(await screen.findByText('Aucune saisie pour le moment'));
  });

  it("merges the server's repairs with this partner's queued entries, newest first, each queued one marked", async () => {
    api.on('GET /repairs', () =>
      ok([record(1, '2025-03-01T10:00:00.000Z', 120_500), record(2, '2025-02-20T08:30:00.000Z', 98_000)]),
    );
    api.on('POST /repairs', () => offline());
    await db.repairTypes.bulkPut(repairTypes.map((type, position) => ({ ...type, position })));
    await db.outbox.bulkAdd([
      queuedEntry('00000000-0000-4000-8000-000000000001', 1, 'queued', '2025-03-02T09:00:00.000Z', 121_000),
      queuedEntry('00000000-0000-4000-8000-000000000002', 2, 'sending', '2025-02-25T09:00:00.000Z', 110_000),
      queuedEntry(KEY_REJECTED, 3, 'refused', '2025-02-24T09:00:00.000Z', 105_000, {
        lastError: { code: 404, message: 'Véhicule introuvable' },
      }),
      queuedEntry('00000000-0000-4000-8000-000000000004', 4, 'waiting_for_sign_in', '2025-02-10T09:00:00.000Z', 90_000),
      // Another partner's entry on the same tablet: never shown here.
      {
        ...queuedEntry('00000000-0000-4000-8000-000000000005', 5, 'queued', '2025-03-03T09:00:00.000Z', 1),
        partnerId: 'other',
      },
    ]);
    await openHistory();
    await waitFor(() => expect(bodyRows()).toHaveLength(6));
    const rows = bodyRows().map(cellTexts);
    expect(rows.map((cells) => cells[1]?.replace(/\s/g, ' '))).toEqual([
      '121 000 km',
      '120 500 km',
      '110 000 km',
      '105 000 km',
      '98 000 km',
      '90 000 km',
    ]);
    // The verdict column: the server's, for stored entries only.
    expect(rows.map((cells) => cells[4]?.startsWith('Plausible') ?? false)).toEqual([
      false,
      true,
      false,
      false,
      true,
      false,
    ]);
    expect(rows.map((cells) => cells[5]?.split(/(?<=[ée])(?=[A-Z])/)[0])).toEqual([
      'En attente',
      'Envoyée',
      'Envoi…',
      expect.stringMatching(/^Refusée/),
      'Envoyée',
      'En attente de connexion',
    ]);
    expect(rows[0]?.[0]).toBe('KODE000001');
    expect(rows[0]?.[2]).toBe('Freinage');
    expect(rows[1]?.[2]).toBe('Freinage');
    expect(rows[0]?.[3]).toMatch(/^02\/03\/2025 \d\d:00$/);
    expect(rows[3]?.[5]).toContain('Véhicule introuvable');
    expectVisible(screen.getByText('6 sur 6'));
  });

  it('lists a correction above the entry it replaces, whatever their ids or where they are held', async () => {
    const at = '2025-03-01T10:00:00.000Z';
    // The original's id sorts after its correction's: read by id alone it would come first.
    const original = { ...record(9, at, 120_500), id: 'repair-9', superseded_by: 'repair-1' };
    const correction = {
      ...record(1, at, 12_050),
      id: 'repair-1',
      corrects: 'repair-9',
      correction_reason: 'typo' as const,
    };
    const standing = { ...record(5, at, 80_000), id: 'repair-5' };
    api.on('GET /repairs', () =>
      ok([
        record(2, '2025-03-02T10:00:00.000Z', 121_000),
        original,
        correction,
        standing,
        record(3, '2025-02-01T10:00:00.000Z', 90_000),
      ]),
    );
    api.on('POST /repairs', () => offline());
    // A correction still on the tablet of the standing entry, which keeps that entry's moment.
    await db.outbox.add(
      queuedEntry('00000000-0000-4000-8000-000000000001', 1, 'queued', at, 81_000, {
        entry: {
          ...queuedEntry('x', 1, 'queued', at, 81_000).entry,
          corrects: 'repair-5',
          correction_reason: 'typo',
        },
      }),
    );
    await openHistory();
    await waitFor(() => expect(bodyRows()).toHaveLength(6));
    expect(bodyRows().map((row) => cellTexts(row)[1]?.replace(/\s/g, ' '))).toEqual([
      '121 000 km',
      // Each correction right above what it replaces; two such pairs of one moment, by the original's id.
      '12 050 km',
      '120 500 km',
      '81 000 km',
      '80 000 km',
      '90 000 km',
    ]);
  });

  it('shows an entry being sent while the browser is offline as waiting, never as being sent', async () => {
    setOnline(false);
    await db.outbox.add(
      queuedEntry('00000000-0000-4000-8000-000000000001', 1, 'sending', '2025-03-02T09:00:00.000Z', 121_000),
    );
    await openHistory();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(bodyRows()[0]?.dataset.status).toBe('pending');
    expect(cellTexts(bodyRows()[0]!)[5]).toBe('En attente');
    // Online, the same entry reads 'Envoi…' (the test above).
  });

  it('shows repair types in Arabic when Arabic is chosen', async () => {
    api.on('GET /repairs', () => ok([record(1, '2025-03-01T10:00:00.000Z', 120_500)]));
    await openHistory({ locale: 'ar' });
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(cellTexts(bodyRows()[0]!)[2]).toBe('الفرامل');
    expect(document.documentElement.dir).toBe('rtl');
  });

  it('shows until when a correction can itself be corrected as the server says (from the first reading)', async () => {
    const now = Date.now();
    // A correction stored just now, of a reading stored six days ago: its window closes in one day.
    const correction = {
      ...record(1, '2025-03-01T10:00:00.000Z', 120_500),
      created_at: new Date(now).toISOString(),
      correctable_until: new Date(now + 24 * 3_600_000).toISOString(),
    };
    api.on('GET /repairs', () => ok([correction]));
    await openHistory();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    const deadline = new Date(now + 24 * 3_600_000);
    const day = `${String(deadline.getDate()).padStart(2, '0')}/${String(deadline.getMonth() + 1).padStart(2, '0')}`;
    expect(cellTexts(bodyRows()[0]!)[4]).toContain(`Corrigeable jusqu’au ${day}/`);
  });

  it('discards a refused entry only after confirmation', async () => {
    await db.outbox.add(
      queuedEntry(KEY_REJECTED, 1, 'refused', '2025-02-24T09:00:00.000Z', 105_000, {
        lastError: { code: 404, message: 'Véhicule introuvable' },
      }),
    );
    const user = await openHistory();
    await user.click(await screen.findByRole('button', { name: 'Abandonner la saisie KODE000001' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Abandonner cette saisie ?' });
    expectVisible(within(dialog).getByText(/sera supprimée de la tablette et ne sera jamais envoyée/));
    await user.click(within(dialog).getByRole('button', { name: 'Garder' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await db.outbox.count()).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Abandonner la saisie KODE000001' }));
    dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Abandonner' }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expectVisible(await screen.findByText('Aucune saisie pour le moment'));
  });

  it('corrects a refused entry and sends it again under a new key with its original date', async () => {
    await db.outbox.add(
      queuedEntry(KEY_REJECTED, 1, 'refused', '2025-02-24T09:00:00.000Z', 105_000, {
        lastError: { code: 400, message: 'Veuillez saisir un kilometrage valide' },
      }),
    );
    const user = await openHistory();
    await user.click(await screen.findByRole('button', { name: 'Corriger la saisie KODE000001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Corriger la saisie' });
    const odometer = within(dialog).getByLabelText(/Kilométrage/);
    expect(odometer).toHaveProperty('value', '105000');
    expect(within(dialog).getByLabelText(/Identifiant du véhicule/)).toHaveProperty('value', 'KODE000001');
    // The repair types come from IndexedDB: the select shows the entry's once its options are there.
    await waitFor(() => expect(within(dialog).getByLabelText(/Type de panne/)).toHaveProperty('value', 'rt-brakes'));
    await user.clear(odometer);
    await user.type(odometer, '106000');
    await user.click(within(dialog).getByRole('button', { name: 'Renvoyer' }));
    // The confirmation is asked again.
    expect(fieldErrorBeside(within(dialog).getByRole('checkbox', { name: /Je confirme/ }))).toBe(
      'Veuillez confirmer les informations avant de soumettre',
    );
    expect(api.posted).toEqual([]);
    await user.click(within(dialog).getByRole('checkbox', { name: /Je confirme/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Renvoyer' }));
    await expectToast({ type: 'success', title: 'Opération réussie', description: 'La saisie a été enregistrée.' });
    expect(api.posted).toHaveLength(1);
    expect(api.posted[0]?.key).not.toBe(KEY_REJECTED);
    expect(api.posted[0]?.body).toMatchObject({ odometer: 106000, recorded_at: '2025-02-24T09:00:00.000Z' });
    await waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(await db.history.count()).toBe(1);
  });

  it('keeps an entry the server holds with other values under its key: refused, both versions shown, then corrected', async () => {
    const recordedAt = '2025-02-24T09:00:00.000Z';
    // The server stored 121,500 km under this tablet's key (an edited hand-over file sent first elsewhere).
    const forged = repairRecord({
      id: '00000000-0000-4000-8000-0000000000f1',
      vehicle: { kode_id: 'KODE000001', vin: clio.vin, brand: clio.brand, name: clio.name, year: clio.year },
      repair_type: repairTypes[1]!,
      odometer: 121_500,
      recorded_at: recordedAt,
      created_at: new Date().toISOString(),
      idempotency_key: KEY_REJECTED,
    });
    api.on('GET /repairs', () => ok([forged]));
    await db.repairTypes.bulkPut(repairTypes.map((type, position) => ({ ...type, position })));
    await db.outbox.add(queuedEntry(KEY_REJECTED, 1, 'queued', recordedAt, 120_500));
    const user = await openHistory();

    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    const [refused, stored] = [rowWithStatus('rejected'), rowWithStatus('synced')];
    expect(refused.textContent).toContain('Cette saisie a déjà été enregistrée avec un contenu différent');
    expect(refused.textContent).toContain('Le serveur a enregistré une autre version de cette saisie');
    expect(refused.querySelector('[data-field="odometer"]')?.textContent?.replace(/\s/g, ' ')).toBe(
      'KilométrageSur cette tablette : 120 500 kmSur le serveur : 121 500 km',
    );
    // Only what differs is listed; the entry is not offered to be sent again as it is.
    expect(refused.querySelectorAll('[data-field]')).toHaveLength(1);
    expect(within(refused).queryByRole('button', { name: 'Corriger la saisie KODE000001' })).toBeNull();
    expect(stored.textContent).toContain('Autre version sur cette tablette');
    expect((await db.outbox.get(KEY_REJECTED))?.state).toBe('in_conflict');

    await user.click(
      within(refused).getByRole('button', { name: 'Enregistrer la saisie KODE000001 comme correction' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Corriger la saisie KODE000001' });
    expect(within(dialog).getByLabelText(/Kilométrage/)).toHaveProperty('value', '120500');
    await user.selectOptions(within(dialog).getByLabelText('Motif de la correction'), 'typo');
    await user.click(within(dialog).getByRole('checkbox', { name: /Je confirme/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer la correction' }));
    await waitFor(() => expect(api.posted).toHaveLength(1));
    expect(api.posted[0]?.key).not.toBe(KEY_REJECTED);
    expect(api.posted[0]?.body).toMatchObject({
      odometer: 120_500,
      corrects: forged.id,
      correction_reason: 'typo',
      recorded_at: recordedAt,
    });
    await waitFor(async () => expect(await db.outbox.count()).toBe(0));
  });

  it("shows 5,000 entries 50 at a time, then more on request (its speed is npm run bench's)", async () => {
    const start = Date.parse('2020-01-01T00:00:00.000Z');
    await db.history.bulkPut(
      Array.from({ length: 5000 }, (_, n) => ({
        ...record(n, new Date(start + n * 3_600_000).toISOString(), 10_000 + n),
        partnerId: partner.id,
      })),
    );
    const user = await openHistory();
    await waitFor(() => expect(bodyRows()).toHaveLength(50));
    expectVisible(screen.getByText('50 sur 5000'));
    // Newest first.
    expect(cellTexts(bodyRows()[0]!)[1]).toMatch(/^14\s999 km$/);
    await user.click(screen.getByRole('button', { name: 'Afficher plus' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(100));
    expectVisible(screen.getByText('100 sur 5000'));
  });

  it('pages synced and queued entries together by their moment, whichever holds the newest, counting both', async () => {
    api.on('GET /repairs', () => offline());
    const start = Date.parse('2025-01-01T00:00:00.000Z');
    const at = (hour: number) => new Date(start + hour * 3_600_000).toISOString();
    // Even hours synced, odd hours queued: 60 of each, interleaved.
    await db.history.bulkPut(
      Array.from({ length: 60 }, (_, n) => ({ ...record(n, at(2 * n), 10_000 + 2 * n), partnerId: partner.id })),
    );
    await db.outbox.bulkAdd(
      Array.from({ length: 60 }, (_, n) =>
        queuedEntry(
          `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
          n + 1,
          'queued',
          at(2 * n + 1),
          10_001 + 2 * n,
        ),
      ),
    );
    // A correction queued for the newest synced repair keeps that repair's moment, past the queued page.
    await db.outbox.add(
      queuedEntry('00000000-0000-4000-8000-999999999999', 99, 'queued', at(118), 10_500, {
        entry: {
          ...queuedEntry('', 0, 'queued', at(118), 10_500).entry,
          corrects: 'repair-59',
          correction_reason: 'typo',
        },
      }),
    );
    const user = await openHistory();
    await waitFor(() => expect(bodyRows()).toHaveLength(50));
    expectVisible(screen.getByText('50 sur 121'));
    const readings = () => bodyRows().map((row) => Number((cellTexts(row)[1] ?? '').replace(/\D/g, '')));
    // Newest first across both: the queued 10,119, the correction above the repair it replaces, then down by one.
    expect(readings().slice(0, 4)).toEqual([10_119, 10_500, 10_118, 10_117]);
    expect(bodyRows()[2]?.textContent).toContain('Correction en attente d’envoi');
    expect(readings().at(-1)).toBe(10_119 - 48);
    await user.click(screen.getByRole('button', { name: 'Afficher plus' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(100));
    expect(readings().slice(48, 52)).toEqual([10_072, 10_071, 10_070, 10_069]);
    await user.click(screen.getByRole('button', { name: 'Afficher plus' }));
    await waitFor(() => expectVisible(screen.getByText('121 sur 121')), { timeout: 15_000 });
    expect(readings().at(-1)).toBe(10_000);
  }, 45_000);

  it("shows an entry refused for a conflict as such before the history brings the server's version", async () => {
    api.on('GET /repairs', () => offline());
    await db.outbox.add(
      queuedEntry(KEY_REJECTED, 1, 'in_conflict', '2025-02-24T09:00:00.000Z', 120_500, {
        lastError: { code: 422, reason: 'idempotency_conflict', message: '' },
      }),
    );
    await openHistory();

    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    const refused = rowWithStatus('rejected');
    expect(refused.textContent).toContain('Sa version s’affichera à la prochaine actualisation de l’historique.');
    // Sent again as it is, the server would refuse its key once more.
    expect(within(refused).queryByRole('button', { name: 'Corriger la saisie KODE000001' })).toBeNull();
    expect(within(refused).getByRole('button', { name: 'Abandonner la saisie KODE000001' })).toBeTruthy();
  });

  it("pages older repairs from where the server's last page ended, not from an old entry sent late", async () => {
    const start = Date.parse('2025-01-01T00:00:00.000Z');
    const onServer = Array.from({ length: 130 }, (_, n) =>
      record(n, new Date(start + n * 3_600_000).toISOString(), 10_000 + n),
    ).reverse();
    api.on('GET /repairs', (_options, path) => {
      const query = new URL(path, 'http://portal').searchParams;
      const before = query.get('before');
      const beforeId = query.get('before_id');
      const older = onServer.filter(
        (r) => !before || r.recorded_at < before || (r.recorded_at === before && beforeId !== null && r.id < beforeId),
      );
      return ok(older.slice(0, Number(query.get('limit') ?? 100)));
    });
    // Recorded offline long ago and acknowledged into the history when it was finally sent.
    await db.history.put({ ...record(999, '2024-06-01T08:00:00.000Z', 9_000), partnerId: partner.id });
    const user = await openHistory();
    await waitFor(() => expectVisible(screen.getByText('50 sur 101')));
    await user.click(screen.getByRole('button', { name: 'Afficher plus' }));
    await user.click(await screen.findByRole('button', { name: 'Afficher plus' }));
    // A hundred rows and more drawn by jsdom: seconds on a loaded 2-core machine (a clean-clone run once
    // took over 5 s for the last page), however quick in a browser.
    const manyRows = { timeout: 15_000 };
    await waitFor(() => expectVisible(screen.getByText('101 sur 101')), manyRows);
    await user.click(screen.getByRole('button', { name: 'Afficher plus' }));
    await waitFor(() => expectVisible(screen.getByText('131 sur 131')), manyRows);
  }, 45_000);
});

describe('history on a tablet held upright', () => {
  // Back to the landscape screen the file's other tests are written for, whatever order they run in.
  afterEach(() => vi.restoreAllMocks());

  /** A screen narrower than the table: the media query the history asks about matches. */
  function narrowScreen() {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query) =>
        ({
          matches: query.includes('width < 64rem'),
          media: query,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
        }) as unknown as MediaQueryList,
    );
  }

  function cards(name = 'Historique des saisies, des plus récentes aux plus anciennes') {
    const list = screen.getByRole('list', { name });
    return within(list).getAllByRole('listitem');
  }

  it('shows one card per entry, named by its identifier, with every fact, verdict, status and button of a row', async () => {
    narrowScreen();
    const stored = { ...record(1, '2025-03-01T10:00:00.000Z', 120_500), created_at: new Date().toISOString() };
    api.on('GET /repairs', () => ok([stored]));
    await db.outbox.add(
      queuedEntry(KEY_REJECTED, 1, 'refused', '2025-03-02T09:00:00.000Z', 105_000, {
        lastError: { code: 404, message: 'Véhicule introuvable' },
      }),
    );
    await openHistory();
    await waitFor(() => expect(cards()).toHaveLength(2));
    // One layout only: screen readers and the mechanic meet each entry once.
    expect(screen.queryByRole('table')).toBeNull();

    const [refused, synced] = cards();
    expect(refused!.dataset).toMatchObject({ status: 'rejected' });
    expectVisible(within(refused!).getByRole('heading', { level: 2, name: 'KODE000001' }));
    expect(refused!.textContent).toContain('Refusée');
    expect(refused!.textContent).toContain('Véhicule introuvable');
    expect(refused!.textContent?.replace(/\s/g, ' ')).toContain('105 000 km');
    expect(refused!.textContent).toContain('Freinage');
    expect(refused!.textContent).toMatch(/02\/03\/2025 \d\d:00/);
    expectVisible(within(refused!).getByRole('button', { name: 'Corriger la saisie KODE000001' }));
    expectVisible(within(refused!).getByRole('button', { name: 'Abandonner la saisie KODE000001' }));

    expect(synced!.dataset).toMatchObject({ status: 'synced', verdict: 'plausible' });
    expect(within(synced!).getByRole('heading', { level: 2 }).textContent).toBe('KODE000001');
    for (const label of ['Kilométrage', 'Type de panne', 'Date de saisie', 'Vérification']) {
      expectVisible(within(synced!).getByText(label));
    }
    expect(synced!.textContent).toContain('Plausible');
    expect(synced!.textContent).toContain('Envoyée');
    expect(synced!.textContent).toMatch(/Corrigeable jusqu’au/);
    expectVisible(within(synced!).getByRole('button', { name: 'Corriger le relevé KODE000001' }));
    expectVisible(screen.getByText('2 sur 2'));
  });

  it('keeps the identifier and date left to right in Arabic, the reading in Arabic words (كم)', async () => {
    narrowScreen();
    api.on('GET /repairs', () => ok([record(1, '2025-03-01T10:00:00.000Z', 120_500)]));
    await openHistory({ locale: 'ar' });
    const arabicName = 'سجل الإدخالات، من الأحدث إلى الأقدم';
    await waitFor(() => expect(cards(arabicName)).toHaveLength(1));
    expect(document.documentElement.dir).toBe('rtl');
    const ltr = [...cards(arabicName)[0]!.querySelectorAll('[dir="ltr"]')].map((element) => element.textContent);
    expect(ltr[0]).toBe('KODE000001');
    expect(ltr[1]).toMatch(/^01\/03\/2025 \d\d:00$/);
    // Isolated with its own direction: the number first in the reading direction, then the unit.
    const reading = [...cards(arabicName)[0]!.querySelectorAll('bdi')].find((element) =>
      /كم/.test(element.textContent ?? ''),
    );
    expect(reading?.textContent).toMatch(/^120.500 كم$/);
  });
});
