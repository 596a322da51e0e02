/** The outbox's storage operations on their own: what each one lets a sender do to a queued entry. */
import { afterEach, describe, expect, it } from 'vitest';
import type { RepairRecord } from '../../../../contract';
import { db as portalDb, forgetPartnerData, type OutboxEntry, type PortalDatabase } from '../../../../src/lib/db';
import { acknowledge, addToOutbox, claimForSending, mergeServerRecords } from '../../../../src/lib/entries/outbox';
import { importHandedOver } from '../../../../src/lib/entries/outbox-handover';
import { repairRecord } from '../../../support/records';
import { freshDatabase, repair } from './support';

const databases: PortalDatabase[] = [];
afterEach(async () => {
  for (const db of databases.splice(0)) {
    db.close();
    await db.delete();
  }
});

function database() {
  const db = freshDatabase();
  databases.push(db);
  return db;
}

describe('claiming an entry for sending', () => {
  it("a sender for partner B cannot claim partner A's entry: it stays pending, as it was", async () => {
    const db = database();
    const entry = await addToOutbox(db, {
      key: '00000000-0000-4000-8000-000000000001',
      partnerId: 'partner-a',
      input: repair('KODE000001', 1000),
      recordedAt: '2025-03-01T08:00:00.000Z',
    });

    expect(await claimForSending(db, entry.key, 'partner-b')).toBeNull();
    expect(await db.outbox.get(entry.key)).toEqual(entry);

    // Its own partner's sender claims it, once.
    expect(await claimForSending(db, entry.key, 'partner-a')).toEqual({
      row: { ...entry, state: 'sending' },
      signIns: 0,
      signOuts: 0,
    });
    expect(await db.outbox.get(entry.key)).toEqual({ ...entry, state: 'sending' });
    expect(await claimForSending(db, entry.key, 'partner-a')).toBeNull();
  });
});

describe('an answer that arrives after sign-out', () => {
  it("takes the entry out of the outbox but leaves nothing of the signed-out partner's history behind", async () => {
    await Promise.all([portalDb.outbox.clear(), portalDb.history.clear(), portalDb.meta.clear()]);
    const entry = await addToOutbox(portalDb, {
      key: '00000000-0000-4000-8000-000000000002',
      partnerId: 'partner-a',
      input: repair('KODE000001', 1000),
      recordedAt: '2025-03-01T08:00:00.000Z',
    });
    const claim = await claimForSending(portalDb, entry.key, 'partner-a');
    // The mechanic signs out while the request is on its way; then the server's answer comes.
    await forgetPartnerData('partner-a');
    const stored = { id: 'repair-1', idempotency_key: entry.key, recorded_at: entry.entry.recorded_at } as RepairRecord;
    await acknowledge(portalDb, claim!, stored);
    expect(await portalDb.outbox.count()).toBe(0);
    expect(await portalDb.history.where('partnerId').equals('partner-a').count()).toBe(0);
  });
});

/** The repair the server stored under `entry`'s key, with other values when told. */
function storedUnder(entry: OutboxEntry, changes: { odometer?: number; note?: string } = {}): RepairRecord {
  return repairRecord({
    id: `repair-${entry.seq}`,
    vehicle: { kode_id: entry.entry.kode_id, vin: 'VF1RJA00000000001', brand: 'Renault', name: 'Clio', year: 2019 },
    repair_type: { id: entry.entry.repair_type_id, name: 'Vidange', name_ar: null, name_en: null },
    odometer: changes.odometer ?? entry.entry.odometer,
    note: changes.note ?? entry.entry.note ?? '',
    recorded_at: entry.entry.recorded_at,
    idempotency_key: entry.key,
  });
}

async function queue(db: PortalDatabase, key: string, odometer: number): Promise<OutboxEntry> {
  return addToOutbox(db, {
    key,
    partnerId: 'partner-a',
    input: repair('KODE000001', odometer),
    recordedAt: '2025-03-01T08:00:00.000Z',
  });
}

describe("merging the server's repairs into the history", () => {
  it('drops a queued entry the server holds under its key with the same content: it is synced', async () => {
    const db = database();
    const entry = await queue(db, '00000000-0000-4000-8000-000000000011', 120_500);
    await mergeServerRecords(db, 'partner-a', [storedUnder(entry)]);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.history.count()).toBe(1);
  });

  it('keeps one whose content differs from what the server stored under its key: refused as a conflict, values kept', async () => {
    const db = database();
    const entry = await queue(db, '00000000-0000-4000-8000-000000000012', 120_500);
    // An edited hand-over file sent first from another tablet: the server holds 121,500 km under this key.
    await mergeServerRecords(db, 'partner-a', [storedUnder(entry, { odometer: 121_500 })]);
    const kept = await db.outbox.get(entry.key);
    expect(kept?.entry).toEqual(entry.entry);
    expect(kept?.state).toBe('in_conflict');
    expect(kept?.lastError).toEqual({ code: 422, reason: 'idempotency_conflict', message: '' });
    // The server's version is in the history too: both are there to be compared.
    expect((await db.history.toArray()).map((row) => row.odometer)).toEqual([121_500]);
  });
});

describe('importing a hand-over file into an outbox that holds some of its keys', () => {
  const KEY = '00000000-0000-4000-8000-000000000021';
  const OTHER = '00000000-0000-4000-8000-000000000022';

  it('names an entry whose key this outbox holds with other values, with what differs; neither added nor present', async () => {
    const db = database();
    const held = await queue(db, KEY, 120_500);
    const result = await importHandedOver(
      db,
      'partner-a',
      [
        { key: KEY, entry: { ...held.entry, odometer: 121_500, note: 'modifiée' }, rejected: false, lastError: null },
        { key: OTHER, entry: { ...held.entry, odometer: 130_000 }, rejected: false, lastError: null },
      ],
      '2025-03-02T08:00:00.000Z',
    );
    expect(result).toEqual({
      added: 1,
      present: 0,
      conflicts: [
        {
          key: KEY,
          kodeId: 'KODE000001',
          differences: [
            { field: 'odometer', here: 120_500, there: 121_500 },
            { field: 'note', here: '', there: 'modifiée' },
          ],
        },
      ],
      photosAdded: 0,
    });
    // This tablet's entry is as it was.
    expect((await db.outbox.get(KEY))?.entry).toEqual(held.entry);
  });

  it('does the same against a synced repair of the history, and counts an identical one as present', async () => {
    const db = database();
    const held = await queue(db, KEY, 120_500);
    await mergeServerRecords(db, 'partner-a', [storedUnder(held)]);
    const same = { key: KEY, entry: held.entry, rejected: false, lastError: null };
    expect(await importHandedOver(db, 'partner-a', [same], '2025-03-02T08:00:00.000Z')).toEqual({
      added: 0,
      present: 1,
      conflicts: [],
      photosAdded: 0,
    });
    const edited = { ...same, entry: { ...held.entry, odometer: 121_500 } };
    expect(await importHandedOver(db, 'partner-a', [edited], '2025-03-02T08:00:00.000Z')).toEqual({
      added: 0,
      present: 0,
      conflicts: [
        { key: KEY, kodeId: 'KODE000001', differences: [{ field: 'odometer', here: 120_500, there: 121_500 }] },
      ],
      photosAdded: 0,
    });
    expect(await db.outbox.count()).toBe(0);
  });
});
