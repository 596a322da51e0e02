// @vitest-environment node
/**
 * (Node's Blob survives IndexedDB's structured clone, as a browser's does; jsdom's does not.)
 *
 * What the odometer photos take on the tablet, and the room won back by dropping those of entries the
 * server already holds: never a photo whose entry is still queued, never another partner's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addToOutbox } from '../../../../src/lib/entries/outbox';
import { dropPhotosOfSentEntries, photoStorage } from '../../../../src/lib/entries/photo-storage';
import { freshDatabase, repair } from './support';

const db = freshDatabase();
afterEach(async () => {
  await Promise.all([db.outbox.clear(), db.photos.clear()]);
});

const photoOf = (bytes: number) => ({
  blob: new Blob([new Uint8Array(bytes)]),
  type: 'image/webp' as const,
  width: 1600,
  height: 1200,
});

async function entryWithPhoto(key: string, partnerId: string, bytes: number) {
  return addToOutbox(db, {
    key,
    partnerId,
    input: repair('KODE000001', 1000),
    recordedAt: '2026-11-28T08:00:00.000Z',
    photo: photoOf(bytes),
  });
}

describe('photos on the tablet', () => {
  it('counts every photo of the partner, and apart those whose entry the server holds, refused or to hand over', async () => {
    await entryWithPhoto('queued', 'partner-a', 100);
    await entryWithPhoto('sent', 'partner-a', 250);
    await entryWithPhoto('sent-refused', 'partner-a', 50);
    await entryWithPhoto('other-partner', 'partner-b', 999);
    await db.outbox.bulkDelete(['sent', 'sent-refused']);
    await db.photos.update('sent-refused', { state: 'refused' });
    expect(await photoStorage(db, 'partner-a')).toEqual({
      count: 3,
      bytes: 400,
      ofSentEntries: { count: 2, bytes: 300 },
      // A refused photo would be refused from another tablet too: only the one still to send is handed over.
      toHandOver: 1,
    });
  });

  it('drops only the photos of entries the server holds, of this partner', async () => {
    await entryWithPhoto('queued', 'partner-a', 100);
    await entryWithPhoto('sent', 'partner-a', 250);
    await entryWithPhoto('other-sent', 'partner-b', 999);
    await db.outbox.bulkDelete(['sent', 'other-sent']);
    expect(await dropPhotosOfSentEntries(db, 'partner-a')).toBe(1);
    expect((await db.photos.toArray()).map((photo) => photo.id).sort()).toEqual(['other-sent', 'queued']);
  });
});
