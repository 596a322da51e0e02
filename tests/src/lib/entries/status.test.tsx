/**
 * The one sync status the screens follow: the signed-in partner's queue read live from the outbox,
 * the connection, and what the page's sender saw of its sends (never the browser's words).
 */
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../../src/lib/db';
import { submitRepair } from '../../../../src/lib/entries';
import { getSyncStatus, subscribeSyncStatus, useSyncStatus, type SyncStatus } from '../../../../src/lib/entries/hooks';
import { fail, offline, queuedEntry, setOnline, useDashboardSetting } from '../../features/dashboard/support';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

const api = useDashboardSetting();

const KEY = (n: number) => `00000000-0000-4000-8000-0000000000c${n}`;

let stopFollowing: (() => void) | null = null;
afterEach(() => {
  stopFollowing?.();
  stopFollowing = null;
});

/** Follows the status until it satisfies `expected`, as a screen would. */
function follow(): { until(expected: (status: SyncStatus) => boolean): Promise<SyncStatus> } {
  const changes = new Set<() => void>();
  stopFollowing = subscribeSyncStatus(() => changes.forEach((change) => change()));
  return {
    until: (expected) =>
      new Promise((resolve) => {
        const check = () => {
          const status = getSyncStatus();
          if (!expected(status)) return;
          changes.delete(check);
          resolve(status);
        };
        changes.add(check);
        check();
      }),
  };
}

const entryInput = (odometer: number) => ({
  kode_id: 'KODE000001',
  odometer,
  repair_type_id: 'rt-oil',
  consented: true as const,
  note: '',
});

describe('the sync status', () => {
  it("counts the signed-in partner's queue live, with since when its oldest entry waits", async () => {
    const status = follow();
    expect(await status.until((now) => now.online === true)).toMatchObject({ waiting: 0, rejected: 0 });
    await db.outbox.bulkAdd([
      queuedEntry(KEY(1), 1, 'refused', '2025-03-01T08:00:00.000Z', 1000, { createdAt: '2025-03-01T08:00:00.000Z' }),
      queuedEntry(KEY(2), 2, 'waiting_for_sign_in', '2025-03-01T09:00:00.000Z', 2000, {
        createdAt: '2025-03-01T09:00:00.000Z',
      }),
      queuedEntry(KEY(3), 3, 'queued', '2025-03-01T10:00:00.000Z', 3000, { createdAt: '2025-03-01T10:00:00.000Z' }),
      { ...queuedEntry(KEY(4), 4, 'queued', '2025-03-01T07:00:00.000Z', 4000), partnerId: 'someone-else' },
    ]);
    expect(await status.until((now) => now.waiting === 2)).toMatchObject({
      rejected: 1,
      oldestWaitingAt: '2025-03-01T09:00:00.000Z',
    });
    await db.outbox.delete(KEY(2));
    expect(await status.until((now) => now.waiting === 1)).toMatchObject({
      oldestWaitingAt: '2025-03-01T10:00:00.000Z',
    });
  });

  it('says what the sender saw: no answer (connected no more, code 0), then an entry stored', async () => {
    const status = follow();
    api.on('POST /repairs', () => offline());
    expect((await submitRepair(entryInput(1000))).kind).toBe('queued');
    const unreached = await status.until((now) => now.lastError !== null && now.waiting === 1);
    expect(unreached).toMatchObject({
      online: true,
      connected: false,
      uploading: false,
      lastError: { code: 0, reason: null },
      lastSuccessAt: null,
    });
    // The browser's own words ("Failed to fetch") are not the status's.
    expect(JSON.stringify(unreached)).not.toContain('Failed');

    api.reset();
    expect((await submitRepair(entryInput(2000))).kind).toBe('stored');
    const stored = await status.until((now) => now.lastSuccessAt !== null && now.waiting === 0);
    expect(stored).toMatchObject({ connected: true, uploading: false, lastError: null, oldestWaitingAt: null });
  });

  it('a refusal is the entry’s, not the sync’s: the last error stays as it was, the refused count says it', async () => {
    const status = follow();
    api.on('POST /repairs', () => fail(422, 'Kilométrage invalide', 'odometer_invalid'));
    expect((await submitRepair(entryInput(1000))).kind).toBe('rejected');
    expect(await status.until((now) => now.rejected === 1)).toMatchObject({ connected: true, lastError: null });
  });

  it('offline, not connected; a prerendered page claims nothing', async () => {
    const status = follow();
    setOnline(false);
    expect(await status.until((now) => now.online === false)).toMatchObject({ connected: false });
    function Probe() {
      return <>{String(useSyncStatus().online)}</>;
    }
    expect(renderToString(<Probe />)).toBe('null');
  });
});
