import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { DB_VERSION, PortalDatabase } from '../../../../src/lib/db';
import { addToOutbox, OUTBOX_SEQ_KEY } from '../../../../src/lib/entries/outbox';
import { newestQueued, partnerOutbox } from '../../../../src/lib/entries/outbox-queries';
import { olderEntryBody, repair } from './support';

/** The stores exactly as version 1 of the app declared them. */
const V1_STORES = {
  accounts: 'id',
  meta: 'key',
  repairTypes: 'id, position',
  vehicles: '[partnerId+kode_id], partnerId',
  history: 'id, partnerId, [partnerId+recorded_at]',
  outbox: 'key, partnerId, state, [partnerId+seq], [partnerId+state]',
};

/** The words the outbox stored an entry's state in before version 7. */
type StateBefore7 = 'pending' | 'sending' | 'rejected' | 'waiting_for_sign_in';

function v1Entry(n: number, partnerId: string, state: StateBefore7, kodeId = `KODE00010${n}`) {
  return {
    key: `00000000-0000-4000-8000-00000000000${n}`,
    partnerId,
    entry: olderEntryBody(n, kodeId, `2025-02-0${n}T10:00:00.000Z`),
    state,
    seq: n,
    attempts: n - 1,
    nextAttemptAt: 0,
    lastError: state === 'rejected' ? { code: 404, message: 'Véhicule introuvable' } : null,
    createdAt: `2025-02-0${n}T10:00:00.000Z`,
  };
}

describe('IndexedDB schema upgrade', () => {
  it(`keeps every queued entry when a version 1 database opens at version ${DB_VERSION}`, async () => {
    const name = `upgrade-${Math.random().toString(36).slice(2)}`;
    const old = new Dexie(name);
    old.version(1).stores(V1_STORES);
    await old.open();
    const queued = [
      v1Entry(1, 'partner-a', 'pending'),
      v1Entry(2, 'partner-a', 'sending'),
      v1Entry(3, 'partner-a', 'rejected'),
      v1Entry(4, 'partner-b', 'waiting_for_sign_in', 'KODE000001'),
      v1Entry(5, 'partner-a', 'pending', 'KODE000001'),
    ];
    await old.table('outbox').bulkAdd(queued);
    await old.table('history').add({
      id: 'r1',
      partnerId: 'partner-a',
      vehicle: { kode_id: 'KODE000001' },
      odometer: 500,
      recorded_at: '2025-01-01T00:00:00.000Z',
    });
    expect(old.verno).toBe(1);
    old.close();

    const db = new PortalDatabase(name);
    await db.open();
    expect(db.verno).toBe(DB_VERSION);
    const rows = await db.outbox.orderBy('seq').toArray();
    expect(rows.map((row) => row.key)).toEqual(queued.map((row) => row.key));
    // Every field survives, the state in the words of its life (version 7); a send interrupted by the
    // update goes again under the same key.
    expect(rows.map((row) => row.state)).toEqual(['queued', 'queued', 'refused', 'waiting_for_sign_in', 'queued']);
    expect(rows[2]?.lastError).toEqual({ code: 404, message: 'Véhicule introuvable' });
    expect(rows.map((row) => row.entry)).toEqual(queued.map((row) => row.entry));
    expect((await partnerOutbox(db, 'partner-a')).map((row) => row.seq)).toEqual([1, 2, 3, 5]);

    // The new per-vehicle indexes cover the old rows.
    expect(await db.outbox.where('[partnerId+entry.kode_id]').equals(['partner-a', 'KODE000001']).count()).toBe(1);
    expect(await db.history.where('[partnerId+vehicle.kode_id]').equals(['partner-a', 'KODE000001']).count()).toBe(1);
    // So does the history's index of queued entries by moment (version 6): its page lists them, newest first.
    expect((await newestQueued(db, 'partner-a', 3)).map((row) => row.seq)).toEqual([5, 3, 2]);

    // The counter carries on after the highest old seq.
    expect((await db.meta.get(OUTBOX_SEQ_KEY))?.value).toBe(5);
    const added = await addToOutbox(db, {
      key: '00000000-0000-4000-8000-000000000009',
      partnerId: 'partner-a',
      input: repair('KODE000009', 1),
      recordedAt: new Date().toISOString(),
    });
    expect(added.seq).toBe(6);
    db.close();
    await db.delete();
  });
});
