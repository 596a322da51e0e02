/**
 * What the dashboard shows from the tablet's own copy: each entry once in the history whatever the
 * server already holds, and the history and statistics kept from the sign-in on, offline and after a
 * reload, with when they were last fetched and the entries still waiting counted as pending.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RepairRecord } from '../../../../contract';
import { fillDevice } from '../../../../src/features/dashboard/data/device-fill';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { db, type OutboxEntry } from '../../../../src/lib/db';
import { getSyncEngine } from '../../../../src/lib/entries';
import { renderWithApp } from '../../render';
import { expectVisible } from '../../support/dom';
import { clio, offline, ok, queuedEntry, repairTypes, setOnline, statisticTiles, useDashboardSetting } from './support';
import { repairRecord } from '../../../support/records';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

const api = useDashboardSetting();

const KEY = '00000000-0000-4000-8000-0000000000a1';
const RECORDED_AT = '2025-03-02T09:00:00.000Z';

/** A queued entry whose first send met a 503: it waits a minute before the next try. */
function waitingEntry(key: string, odometer: number, seq = 1): OutboxEntry {
  return queuedEntry(key, seq, 'queued', RECORDED_AT, odometer, {
    attempts: 1,
    nextAttemptAt: Date.now() + 60_000,
    lastError: { code: 503, message: 'Service indisponible' },
  });
}

/** The repair as the server stored it under the entry's Idempotency-Key: the entry's own values. */
function storedRecord(key: string, odometer: number): RepairRecord {
  return repairRecord({
    id: 'repair-from-server',
    vehicle: { kode_id: 'KODE000001', vin: clio.vin, brand: clio.brand, name: clio.name, year: clio.year },
    // queuedEntry's repair type: the same entry, not one the server holds with other values.
    repair_type: repairTypes[1]!,
    odometer,
    recorded_at: RECORDED_AT,
    idempotency_key: key,
  });
}

async function openTab(index: number) {
  const user = userEvent.setup();
  const view = await renderWithApp(<DashboardPage />);
  await user.click(screen.getAllByRole('tab')[index]!);
  return { user, view };
}

/** Each body row as [kode_id, odometer, status]. */
function historyRows(): string[][] {
  const table = screen.queryByRole('table');
  if (!table) return [];
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => {
      const cells = within(row).getAllByRole('cell');
      return [cells[0]!.textContent ?? '', (cells[1]!.textContent ?? '').replace(/\s/g, ' '), row.dataset.status ?? ''];
    });
}

describe('an entry the server already holds (its answer was lost)', () => {
  it('is listed once: queued until the refresh brings it, then synced, never both', async () => {
    await db.outbox.add(waitingEntry(KEY, 45_200));
    let answer!: (value: ReturnType<typeof ok>) => void;
    api.on('GET /repairs', () => new Promise((resolve) => (answer = resolve)));
    api.on('POST /repairs', () => offline());

    await openTab(1);
    await waitFor(() => expect(historyRows()).toEqual([['KODE000001', '45 200 km', 'pending']]));

    answer(ok([storedRecord(KEY, 45_200)]));
    await waitFor(() => expect(historyRows()).toEqual([['KODE000001', '45 200 km', 'synced']]));
    // It left the outbox with the same transaction that put it in the history.
    expect(await db.outbox.count()).toBe(0);
    expectVisible(screen.getByText('1 sur 1'));
  });

  it('is never counted twice while a send of it is still in flight', async () => {
    await db.outbox.add(waitingEntry(KEY, 45_200));
    api.on('GET /repairs', () => ok([storedRecord(KEY, 45_200)]));
    await openTab(1);
    await waitFor(() => expect(historyRows()).toEqual([['KODE000001', '45 200 km', 'synced']]));
    // The late answer to the first send (or a replay by the sender) finds nothing left to update.
    await getSyncEngine().kick('manual');
    await getSyncEngine().idle();
    expect(historyRows()).toEqual([['KODE000001', '45 200 km', 'synced']]);
    expect(await db.history.count()).toBe(1);
    expect(await db.outbox.count()).toBe(0);
  });

  it("keeps another partner's queued entry even when a key matches", async () => {
    await db.outbox.add({ ...waitingEntry(KEY, 45_200), partnerId: 'another-partner' });
    api.on('GET /repairs', () => ok([storedRecord(KEY, 45_200)]));
    await openTab(1);
    await waitFor(() => expect(historyRows()).toEqual([['KODE000001', '45 200 km', 'synced']]));
    expect(await db.outbox.get(KEY)).toMatchObject({ partnerId: 'another-partner', state: 'queued' });
  });
});

describe('signing in fills the tablet', () => {
  it('keeps the history and statistics, shown offline with when they were fetched', async () => {
    api.on('GET /repairs', () => ok([storedRecord(KEY, 45_200)]));
    await fillDevice();
    expect(api.calls).toEqual(
      expect.arrayContaining(['partner GET /repairs', 'partner GET /statistics', 'partner GET /repair-types']),
    );

    // The network drops before the dashboard was ever opened.
    setOnline(false);
    api.handlers.clear();
    await openTab(1);
    await waitFor(() => expect(historyRows()).toEqual([['KODE000001', '45 200 km', 'synced']]));
    expect(screen.getByTestId('history-refreshed-at').textContent).toMatch(
      /^Actualisé depuis le serveur le \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/,
    );
    const statistics = screen.getByRole('region', { name: 'Statistiques' });
    expect(statisticTiles(statistics)['Saisies au total']).toBe('1 234');
    expect(within(statistics).getByTestId('statistics-fetched-at').textContent).toMatch(
      /^Chiffres du serveur au \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/,
    );
  });

  it('says the history is not loaded yet, rather than empty, when it was never fetched and the tablet is offline', async () => {
    setOnline(false);
    api.handlers.clear();
    await openTab(1);
    expectVisible(await screen.findByText('Historique pas encore chargé'));
    expect(screen.queryByText('Aucune saisie pour le moment')).toBeNull();
  });
});

describe('statistics on the tablet', () => {
  it('show after a reload offline, with the entries still waiting counted as pending', async () => {
    const first = await renderWithApp(<DashboardPage />);
    const online = await screen.findByRole('region', { name: 'Statistiques' });
    await waitFor(() => expect(statisticTiles(online)['Saisies au total']).toBe('1 234'));
    first.unmount();

    setOnline(false);
    await db.outbox.bulkAdd([
      waitingEntry(KEY, 45_200),
      waitingEntry('00000000-0000-4000-8000-0000000000a2', 46_000, 2),
    ]);
    await renderWithApp(<DashboardPage />);
    const statistics = await screen.findByRole('region', { name: 'Statistiques' });
    expect(statisticTiles(statistics)['Saisies au total']).toBe('1 234');
    // The count of waiting entries comes from its own read of the outbox, which may land after the numbers.
    await waitFor(() =>
      expect(within(statistics).getByTestId('statistics-pending').textContent).toBe('+2 en attente d’envoi'),
    );
  });

  it('are hidden offline when none were ever fetched', async () => {
    setOnline(false);
    api.handlers.clear();
    await renderWithApp(<DashboardPage />);
    await screen.findAllByRole('tab');
    expect(screen.queryByRole('region', { name: 'Statistiques' })).toBeNull();
  });
});
