/** The outbox's storage operations on their own: what each one lets a sender do to a queued entry. */
import { afterEach, describe, expect, it } from 'vitest';
import type { PortalDatabase } from '../../../../src/lib/db';
import { addToOutbox, claimForSending } from '../../../../src/lib/sync/outbox';
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
    expect(await claimForSending(db, entry.key, 'partner-a')).toEqual({ ...entry, state: 'sending' });
    expect(await db.outbox.get(entry.key)).toEqual({ ...entry, state: 'sending' });
    expect(await claimForSending(db, entry.key, 'partner-a')).toBeNull();
  });
});
