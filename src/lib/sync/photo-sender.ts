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

/**
 * The repair the server stored for this entry: named by the photo itself when it came in a hand-over
 * file without its entry, else once the history holds it; null while it is not known.
 */
async function storedRepairId(db: PortalDatabase, row: PhotoRow): Promise<string | null> {
  if (row.repairId) return row.repairId;
  const record = await db.history
    .where('idempotency_key')
    .equals(row.entryKey)
    .filter((held) => held.partnerId === row.partnerId)
    .first();
  return record?.id ?? null;
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
  for (const row of await waitingPhotos(db, partnerId)) {
    if (!isDue(row, options.now(), options.force)) continue;
    const repairId = await storedRepairId(db, row);
    if (!repairId) continue;
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

/** When the earliest photo that can go is due (its entry stored), or null when none can. */
export async function nextPhotoDue(db: PortalDatabase, partnerId: string): Promise<number | null> {
  const photos = await waitingPhotos(db, partnerId);
  if (photos.length === 0) return null;
  // One look at the history for them all: the keys of the entries the server holds.
  const stored = new Set(
    (
      await db.history
        .where('idempotency_key')
        .anyOf(photos.map((row) => row.entryKey))
        .filter((held) => held.partnerId === partnerId)
        .toArray()
    ).map((held) => held.idempotency_key),
  );
  const due = photos.filter((row) => row.repairId || stored.has(row.entryKey)).map((row) => row.nextAttemptAt);
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
