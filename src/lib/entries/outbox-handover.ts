/**
 * A hand-over file's entries and photos taken into this tablet's outbox
 * (docs/ARCHITECTURE.md#the-hand-over-file), in one transaction: each under its original key, one this
 * tablet holds already skipped, one it holds with other values skipped and named as a conflict.
 */
import { normaliseKodeId } from '../../../contract';
import type { OutboxEntry, OutboxError, PortalDatabase } from '../db';
import { entryDifferences, type EntryDifference, type EntryVersion } from './entry-conflict';
import { photoRowOf, takeSeq, type NewPhoto } from './outbox';
import { arrival } from './transition';

/** An entry read from a hand-over file: its original key and body, and whether the server had refused it. */
export interface HandedOverEntry {
  key: string;
  entry: OutboxEntry['entry'];
  rejected: boolean;
  lastError: OutboxError | null;
  /** The odometer's photo the exporting tablet held for it, if any. */
  photo?: NewPhoto | undefined;
}

/** A photo handed over without its entry: the exporting tablet had sent the entry, the server holds it. */
export interface HandedOverPhoto {
  /** The entry's Idempotency-Key. */
  entryKey: string;
  /** The repair the server stored for it, where the photo goes. */
  repairId: string;
  photo: NewPhoto;
}

/** A file's entry under a key this tablet holds with other values: not imported, and said so. */
export interface HandOverConflict {
  key: string;
  kodeId: string;
  /** `here`: this tablet's value; `there`: the file's. */
  differences: EntryDifference[];
}

export interface HandOverResult {
  added: number;
  /** Already in this outbox, or already synced (in the history), with the same values: skipped. */
  present: number;
  /** Held here under the same key with other values: skipped, each named with what differs. */
  conflicts: HandOverConflict[];
  /** Photos of entries the server holds already, added to be sent (those held here are skipped). */
  photosAdded: number;
}

/** What this tablet holds under the key: an entry of its outbox, or a repair of its synced history. */
async function heldUnder(db: PortalDatabase, partnerId: string, key: string): Promise<EntryVersion | null> {
  const queued = await db.outbox.get(key);
  if (queued) return { entry: queued.entry };
  const synced = await db.history
    .where('idempotency_key')
    .equals(key.toLowerCase())
    .filter((row) => row.partnerId === partnerId)
    .first();
  return synced ? { record: synced } : null;
}

/**
 * Puts a hand-over file's entries into this outbox under their original keys and recorded_at, in one
 * transaction: the server stores each key once, so an entry this tablet already holds is skipped and
 * importing twice adds nothing. One it holds under the same key with other values is skipped too, and
 * named: the server would refuse one of the two. A refused entry stays refused (to be corrected here);
 * any other goes out queued. createdAt is the moment of import: the stale alert counts time in this
 * outbox.
 */
export async function importHandedOver(
  db: PortalDatabase,
  partnerId: string,
  entries: readonly HandedOverEntry[],
  importedAt: string,
  sentEntriesPhotos: readonly HandedOverPhoto[] = [],
): Promise<HandOverResult> {
  return db.transaction('rw', db.outbox, db.history, db.meta, db.photos, async () => {
    let added = 0;
    let present = 0;
    const conflicts: HandOverConflict[] = [];
    for (const value of entries) {
      const held = await heldUnder(db, partnerId, value.key);
      if (held) {
        const differences = entryDifferences(held, { entry: value.entry });
        if (differences.length === 0) present += 1;
        else conflicts.push({ key: value.key, kodeId: normaliseKodeId(value.entry.kode_id), differences });
        continue;
      }
      const row = arrival(
        { key: value.key, partnerId, entry: value.entry, seq: await takeSeq(db), createdAt: importedAt },
        { lastError: value.lastError, refused: value.rejected },
      );
      await db.outbox.add(row);
      // Its photo comes with it, under the same key: the server joins it to the repair once.
      if (value.photo) await db.photos.put(photoRowOf(row, value.photo));
      added += 1;
    }
    let photosAdded = 0;
    for (const value of sentEntriesPhotos) {
      if (await photoHeld(db, partnerId, value)) continue;
      await db.photos.add({
        ...photoRowOf({ key: value.entryKey, partnerId, createdAt: importedAt }, value.photo),
        repairId: value.repairId,
      });
      photosAdded += 1;
    }
    return { added, present, conflicts, photosAdded };
  });
}

/** This tablet has the photo already, or its repair's: on the tablet still, or sent (the history says). */
async function photoHeld(db: PortalDatabase, partnerId: string, value: HandedOverPhoto): Promise<boolean> {
  if ((await db.photos.get(value.entryKey)) || (await db.photos.where('entryKey').equals(value.entryKey).count()) > 0) {
    return true;
  }
  const repair = await db.history.get(value.repairId);
  return repair?.partnerId === partnerId && repair.photo != null;
}
