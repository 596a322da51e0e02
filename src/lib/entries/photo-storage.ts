/**
 * What the odometer photos take on the tablet (docs/ARCHITECTURE.md#odometer-photos), and the room the
 * mechanic can win back when storage runs low: photos of entries the server already holds, whose
 * readings are safe; the photos of entries still queued are never offered.
 */
import type { PhotoRow, PortalDatabase } from '../db';

export interface PhotoStorage {
  count: number;
  bytes: number;
  /** Those whose entry has left the outbox (the server has the reading): they may be dropped. */
  ofSentEntries: { count: number; bytes: number };
  /** Of those, the ones still to be sent: the hand-over file carries them. */
  toHandOver: number;
}

async function partnerPhotosBySentEntry(db: PortalDatabase, partnerId: string) {
  return db.transaction('r', db.photos, db.outbox, async () => {
    const photos = await db.photos.where('partnerId').equals(partnerId).toArray();
    const queued = new Set(
      (await db.outbox.bulkGet(photos.map((photo) => photo.entryKey))).flatMap((row) => (row ? [row.key] : [])),
    );
    return { photos, sent: (photo: PhotoRow) => !queued.has(photo.entryKey) };
  });
}

const total = (photos: PhotoRow[]) => ({
  count: photos.length,
  bytes: photos.reduce((sum, photo) => sum + photo.bytes, 0),
});

export async function photoStorage(db: PortalDatabase, partnerId: string): Promise<PhotoStorage> {
  const { photos, sent } = await partnerPhotosBySentEntry(db, partnerId);
  const ofSentEntries = photos.filter(sent);
  return {
    ...total(photos),
    ofSentEntries: total(ofSentEntries),
    toHandOver: ofSentEntries.filter((photo) => photo.state === 'waiting').length,
  };
}

/** Drops the photos of entries the server holds; resolves to how many. */
export async function dropPhotosOfSentEntries(db: PortalDatabase, partnerId: string): Promise<number> {
  return db.transaction('rw', db.photos, db.outbox, async () => {
    const { photos, sent } = await partnerPhotosBySentEntry(db, partnerId);
    const dropped = photos.filter(sent).map((photo) => photo.id);
    await db.photos.bulkDelete(dropped);
    return dropped.length;
  });
}
