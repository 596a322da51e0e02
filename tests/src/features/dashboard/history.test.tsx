import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RepairRecord } from '../../../../contract';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { db } from '../../../../src/lib/db';
import { renderWithApp } from '../../render';
import { expectToast, fieldErrorBeside } from '../../support/api';
import { expectVisible } from '../../support/dom';
import { clio, offline, ok, partner, queuedEntry, repairTypes, useDashboardSetting } from './support';
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
      queuedEntry('00000000-0000-4000-8000-000000000001', 1, 'pending', '2025-03-02T09:00:00.000Z', 121_000),
      queuedEntry('00000000-0000-4000-8000-000000000002', 2, 'sending', '2025-02-25T09:00:00.000Z', 110_000),
      queuedEntry(KEY_REJECTED, 3, 'rejected', '2025-02-24T09:00:00.000Z', 105_000, {
        lastError: { code: 404, message: 'Véhicule introuvable' },
      }),
      queuedEntry('00000000-0000-4000-8000-000000000004', 4, 'waiting_for_sign_in', '2025-02-10T09:00:00.000Z', 90_000),
      // Another partner's entry on the same tablet: never shown here.
      {
        ...queuedEntry('00000000-0000-4000-8000-000000000005', 5, 'pending', '2025-03-03T09:00:00.000Z', 1),
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

  it('shows repair types in Arabic when Arabic is chosen', async () => {
    api.on('GET /repairs', () => ok([record(1, '2025-03-01T10:00:00.000Z', 120_500)]));
    await openHistory({ locale: 'ar' });
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(cellTexts(bodyRows()[0]!)[2]).toBe('الفرامل');
    expect(document.documentElement.dir).toBe('rtl');
  });

  it('discards a refused entry only after confirmation', async () => {
    await db.outbox.add(
      queuedEntry(KEY_REJECTED, 1, 'rejected', '2025-02-24T09:00:00.000Z', 105_000, {
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
      queuedEntry(KEY_REJECTED, 1, 'rejected', '2025-02-24T09:00:00.000Z', 105_000, {
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
    await waitFor(() => expectVisible(screen.getByText('101 sur 101')));
    await user.click(screen.getByRole('button', { name: 'Afficher plus' }));
    await waitFor(() => expectVisible(screen.getByText('131 sur 131')));
  }, 20_000);
});
