/**
 * The entries module (docs/ARCHITECTURE.md#the-entries-module): an odometer entry's whole life, from
 * Insert to the server's history. It owns the outbox and history tables and what is read from them.
 * The rest of the app goes through its doors only (lint refuses any other file of this folder from
 * outside it; eslint.config.js lists them):
 *
 * `src/lib/entries` (this file: the sender, Dexie with it; loads once the first screen is live)
 * - startSync(): the one sender of the page, kicked on start, `online`, return to the tab, sign-in and
 *   each Insert; where the browser has Background Sync, the service worker sends once the tab is closed.
 * - submitRepair, submitCorrection: Insert; resolves stored, refused or queued (SubmitOutcome).
 * - resubmitRepair, correctConflictingEntry, discardRepair: what the mechanic does with a refused entry.
 * - sendNow(): "Send now"; unsentCount(): asked before sign-out; backgroundSyncAvailable().
 * - loadHandover(): the hand-over file's export and import, loaded on demand.
 * - partnerPhotoStorage(), dropSentEntriesPhotos(): the odometer photos the tablet holds.
 * `src/lib/entries/hooks` (light: part of the first screen): useSyncStatus(), useOutboxAttention(now).
 * `src/lib/entries/history`: the history's read model (useHistory, refreshHistory, loadOlderHistory).
 * `src/lib/entries/timeline`: a vehicle's readings (useVehicleTimeline, checkReading, refreshTimeline).
 * `src/lib/entries/words`: each status's badge, an entry's failure in words, refusals' differences.
 * `src/lib/entries/worker`: the service worker's Background Sync.
 *
 * Inside: transition.ts (every state change of an entry, pure), entry-state.ts (its states),
 * parking.ts and refusals.ts (each kind of refusal: where it parks the entry, its words), outbox.ts and
 * outbox-handover.ts (the only writes to the outbox table), outbox-queries.ts (its reads),
 * outbox-meta.ts, outbox-rows.ts; engine.ts (the sender: a scheduler that asks what is due and says what
 * happened), sender.ts (the page's one engine), classify.ts, policy.ts, lock.ts, transport.ts,
 * photo-sender.ts, handover.ts, seal.ts.
 */
import { db } from '../db';
import { currentPartnerId } from '../partner';
import { getSession, onSignIn, subscribeSession } from '../session';
import type { SubmitOutcome } from './entry-desk';
import { makeDueNow, type CorrectionInput, type NewPhoto, type RepairInput } from './outbox';
import { outboxCounts } from './outbox-queries';
import { forgetSyncEngine, getSyncEngine } from './sender';
import { dropPhotosOfSentEntries, photoStorage, type PhotoStorage } from './photo-storage';

export { backgroundSyncAvailable } from './background';
export { getSyncEngine } from './sender';
export type { SubmitOutcome } from './entry-desk';
export type { NewPhoto, RepairInput } from './outbox';
export type { EntrySample, OutboxAttention } from './outbox-queries';
export type { HandOverConflict } from './outbox-handover';
export type { HandoverRefusal } from './handover';
export type { PhotoStorage } from './photo-storage';

/** The hand-over file's code (sealing, reading, importing), loaded when the mechanic uses it. */
export const loadHandover = () => import('./handover');

let stopSync: (() => void) | null = null;

/** Starts sending (once; later calls return the same stop function). */
export function startSync(): () => void {
  if (stopSync) return stopSync;
  const sender = getSyncEngine();
  const online = () => void sender.kick('online');
  const visible = () => {
    if (document.visibilityState === 'visible') void sender.kick('visible');
  };
  window.addEventListener('online', online);
  document.addEventListener('visibilitychange', visible);
  const offSignIn = onSignIn((user) => void sender.resume(user.id));
  // A session restored from the cache (server unreachable at start) fires no sign-in: still try, since
  // the first send's 401 is what revives the session once the server answers again.
  let partner = currentPartnerId();
  const offSession = subscribeSession(() => {
    const next = currentPartnerId();
    if (next && next !== partner) void sender.kick('start');
    partner = next;
  });
  // Started by a sign-in the server just granted (the app starts the sender then): the entries that
  // waited for it go now. Otherwise (at start, or signed in from the cache) a plain pass.
  const session = getSession();
  if (session.status === 'authenticated' && !session.offline && session.user) void sender.resume(session.user.id);
  else void sender.kick('start');
  stopSync = () => {
    window.removeEventListener('online', online);
    document.removeEventListener('visibilitychange', visible);
    offSignIn();
    offSession();
    sender.stop();
    forgetSyncEngine();
    stopSync = null;
  };
  return stopSync;
}

function requirePartner(): string {
  const partnerId = currentPartnerId();
  if (!partnerId) throw new Error('No partner is signed in');
  return partnerId;
}

/**
 * Insert: the entry is written to the outbox, then sent. Resolves once the first attempt has an
 * answer (or after a few seconds): stored on the server, rejected by it, or queued on the tablet.
 */
export function submitRepair(input: RepairInput, photo?: NewPhoto): Promise<SubmitOutcome> {
  return getSyncEngine().submit(requirePartner(), input, undefined, photo);
}

/**
 * A correction of one of the partner's stored repairs (docs/API.md#corrections): queued and sent like
 * any entry, under its own Idempotency-Key, with the moment of the reading it corrects.
 */
export function submitCorrection(
  input: RepairInput & Required<Pick<RepairInput, 'corrects' | 'correction_reason'>>,
  recordedAt: string,
  photo?: NewPhoto,
): Promise<SubmitOutcome> {
  return getSyncEngine().submit(requirePartner(), input, recordedAt, photo);
}

/**
 * An entry the server refused because it holds its key with other values (docs/ARCHITECTURE.md#the-hand-over-file),
 * recorded as a correction of that stored repair with this tablet's values; null if the entry is gone.
 */
export function correctConflictingEntry(
  key: string,
  input: CorrectionInput,
  storedRecordedAt: string,
): Promise<SubmitOutcome | null> {
  return getSyncEngine().correctConflict(requirePartner(), key, input, storedRecordedAt);
}

/** Sends a corrected rejected entry again (new Idempotency-Key, original recorded_at); null if it is gone. */
export function resubmitRepair(key: string, input: RepairInput): Promise<SubmitOutcome | null> {
  return getSyncEngine().resubmit(requirePartner(), key, input);
}

/** How many of the signed-in partner's entries are still to be sent (rejected ones excluded). */
export async function unsentCount(): Promise<number> {
  const partnerId = currentPartnerId();
  if (!partnerId) return 0;
  return (await outboxCounts(db, partnerId)).unsent;
}

/** Drops a rejected entry; false when it is not (or no longer) a rejected entry of this partner. */
export function discardRepair(key: string): Promise<boolean> {
  return getSyncEngine().discard(requirePartner(), key);
}

/**
 * "Send now" (the stale-entry banner): the mechanic asks, so the partner's pending entries go at once,
 * whatever their backoff. Resolves when that pass is over.
 */
export async function sendNow(): Promise<void> {
  const partnerId = currentPartnerId();
  if (!partnerId) return;
  await makeDueNow(db, partnerId);
  await getSyncEngine().kick('manual');
}

const NO_PHOTOS: PhotoStorage = { count: 0, bytes: 0, ofSentEntries: { count: 0, bytes: 0 }, toHandOver: 0 };

/** What the signed-in partner's odometer photos take on the tablet (docs/ARCHITECTURE.md#odometer-photos). */
export function partnerPhotoStorage(): Promise<PhotoStorage> {
  const partnerId = currentPartnerId();
  return partnerId ? photoStorage(db, partnerId) : Promise.resolve(NO_PHOTOS);
}

/** Room won back when storage runs low: the photos of entries the server holds. Resolves to how many. */
export function dropSentEntriesPhotos(): Promise<number> {
  const partnerId = currentPartnerId();
  return partnerId ? dropPhotosOfSentEntries(db, partnerId) : Promise.resolve(0);
}
