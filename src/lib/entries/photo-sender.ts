/**
 * The odometer photos' way to the server (docs/ARCHITECTURE.md#odometer-photos). A photo waits beside
 * its entry; once the server has stored the entry (its record is in the history under the entry's
 * Idempotency-Key), the photo is PUT to that repair, by the same sender, under the same lock, with the
 * same backoff. The upload is idempotent on the server (the same bytes again are a 200), so a photo
 * whose answer was lost goes again harmlessly; it leaves the tablet only once the server has it.
 */
import type { Photo } from '../../../contract';
import type { OutboxError, PhotoRow, PortalDatabase } from '../db';
import { backoffDelay } from './backoff';
import { classifySend, deliveryOf, lastAttemptFoundNoNetwork, type TransportResult } from './classify';
import { SYNC_POLICY } from './policy';

/** PUT /repairs/{id}/photo through the API client. */
export type PhotoTransport = (repairId: string, photo: PhotoRow) => Promise<TransportResult<Photo>>;

/** What a round of photo sends ended with: 'unauthorized' leaves the rest for the next sign-in. */
export type PhotoRound = 'done' | 'no-network' | 'unauthorized' | 'stopped';

export interface PhotoRoundOptions {
  transport: PhotoTransport;
  now: () => number;
  random: () => number;
  /** The network may be back: photos whose last try found none go without waiting out their backoff. */
  force: boolean;
  /** False once sending must stop (lock lost, engine stopped, another partner signed in). */
  mayGoOn: () => Promise<boolean>;
}

/** The partner's photos waiting to go, oldest first. */
function waitingPhotos(db: PortalDatabase, partnerId: string): Promise<PhotoRow[]> {
  return db.photos
    .where('partnerId')
    .equals(partnerId)
    .filter((row) => row.state === 'waiting')
    .sortBy('createdAt');
}

function isDue(row: PhotoRow, now: number, force: boolean): boolean {
  return row.nextAttemptAt <= now || (force && lastAttemptFoundNoNetwork(row));
}

/**
 * Sends every due photo whose entry the server holds, one at a time (they are the heavy part, and the
 * readings have gone first). Stops at the first one that finds no network: the next round tries again.
 */
export async function sendDuePhotos(
  db: PortalDatabase,
  partnerId: string,
  options: PhotoRoundOptions,
): Promise<PhotoRound> {
  for (const { row, repairId } of await photosWithRepair(db, partnerId)) {
    if (!isDue(row, options.now(), options.force)) continue;
    if (!(await options.mayGoOn())) return 'stopped';
    const outcome = classifySend(deliveryOf(await sendOne(options.transport, repairId, row)));
    switch (outcome.kind) {
      case 'stored':
        await photoStored(db, row, repairId, outcome.record);
        break;
      case 'rejected':
        await photoRefused(db, row, outcome.error);
        break;
      case 'unauthorized':
      case 'retry': {
        const delay =
          (outcome.kind === 'retry' ? outcome.retryAfterMs : undefined) ??
          backoffDelay(row.attempts + 1, options.random, SYNC_POLICY.backoff);
        await retryPhotoLater(db, row, outcome.error, options.now() + delay);
        // Its session is gone: the entries' next send says so (and parks them) if the refresh cannot cure it.
        if (outcome.kind === 'unauthorized') return 'unauthorized';
        if (lastAttemptFoundNoNetwork({ lastError: outcome.error })) return 'no-network';
      }
    }
  }
  return 'done';
}

async function sendOne(transport: PhotoTransport, repairId: string, row: PhotoRow): Promise<TransportResult<Photo>> {
  try {
    return await transport(repairId, row);
  } catch (error) {
    return { code: 0, status: 'error', error: { type: 'other', reason: 'network', message: String(error) } };
  }
}

/** A photo whose repair is known: it can go. */
export interface PhotoWithRepair {
  row: PhotoRow;
  repairId: string;
}

/**
 * Those of `photos` whose repair is known, with it: named by the photo itself when it came in a hand-over
 * file without its entry, else the record the history holds under the entry's key. One look at the
 * history for them all, rather than one per photo.
 */
export async function withStoredRepairs(
  db: PortalDatabase,
  partnerId: string,
  photos: readonly PhotoRow[],
): Promise<PhotoWithRepair[]> {
  const lookedUp = photos.filter((row) => !row.repairId).map((row) => row.entryKey);
  const held =
    lookedUp.length === 0
      ? []
      : await db.history
          .where('idempotency_key')
          .anyOf(lookedUp)
          .filter((record) => record.partnerId === partnerId)
          .toArray();
  const repairOf = new Map(held.map((record) => [record.idempotency_key, record.id]));
  return photos.flatMap((row) => {
    const repairId = row.repairId ?? repairOf.get(row.entryKey);
    return repairId ? [{ row, repairId }] : [];
  });
}

/** The partner's photos still to be sent whose repair is known, oldest first. */
export async function photosWithRepair(db: PortalDatabase, partnerId: string): Promise<PhotoWithRepair[]> {
  return withStoredRepairs(db, partnerId, await waitingPhotos(db, partnerId));
}

/** When the earliest photo that can go is due (its entry stored), or null when none can. */
export async function nextPhotoDue(db: PortalDatabase, partnerId: string): Promise<number | null> {
  const due = (await photosWithRepair(db, partnerId)).map(({ row }) => row.nextAttemptAt);
  return due.length === 0 ? null : Math.min(...due);
}

/** The server has it: off the tablet, and the history's record shows it, in one transaction. */
async function photoStored(db: PortalDatabase, row: PhotoRow, repairId: string, photo: Photo): Promise<void> {
  await db.transaction('rw', db.photos, db.history, async () => {
    await db.photos.delete(row.id);
    await db.history.update(repairId, { photo });
  });
}

/**
 * Refused. The server holding another photo for the repair (a copy of this entry sent from another
 * tablet with its own picture) is no loss: that first photo stays the evidence, and this one is
 * dropped. Any other refusal is kept, with its reason, for the History to show.
 */
async function photoRefused(db: PortalDatabase, row: PhotoRow, error: OutboxError): Promise<void> {
  if (error.reason === 'photo_exists') {
    await db.photos.delete(row.id);
    return;
  }
  await db.photos.update(row.id, { state: 'refused', attempts: row.attempts + 1, lastError: error });
}

function retryPhotoLater(db: PortalDatabase, row: PhotoRow, error: OutboxError, nextAttemptAt: number) {
  return db.photos.update(row.id, { attempts: row.attempts + 1, nextAttemptAt, lastError: error });
}
