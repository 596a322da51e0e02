/** The outbox's storage operations on their own: what each one lets a sender do to a queued entry. */
import { afterEach, describe, expect, it } from 'vitest';
import type { RepairRecord } from '../../../../contract';
import { db as portalDb, forgetPartnerData, type PortalDatabase } from '../../../../src/lib/db';
import { acknowledge, addToOutbox, claimForSending } from '../../../../src/lib/sync/outbox';
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
