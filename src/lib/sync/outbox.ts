/**
 * The outbox's storage operations (docs/ARCHITECTURE.md#the-offline-model-in-practice), and the only
 * code that writes to the outbox table. Each one is a single IndexedDB transaction, so an entry is
 * never half written, and a repair leaves the outbox only in the same transaction that puts the
 * server's record into the history.
 *
 * An entry being sent is held by a Claim. Whatever the answer, it changes the entry only if the entry
 * is still as the claim left it: meanwhile another vehicle's 401 may have parked it, a history refresh
 * may have found it on the server, or a newer sign-in may have made the answer stale.
 */
import Dexie from 'dexie';
import type { CorrectionReason, RepairEntry, RepairRecord } from '../../../contract';
import type { OutboxEntry, OutboxError, OutboxState, PhotoRow, PortalDatabase } from '../db';
import { countSoFar, OUTBOX_SEQ_KEY, SIGN_INS_KEY, SIGN_OUTS_KEY } from './outbox-meta';
import { entryDifferences, type EntryDifference, type EntryVersion } from './entry-conflict';
import {
  CONFLICT_REASON,
  isRetried,
  isUnsent,
  mayMove,
  outboxEntryState,
  RETRIED_STATES,
  UNSENT_STATES,
  waitsForMechanic,
} from './entry-state';

export { CONFLICT_REASON, isConflict } from './entry-state';
export { OUTBOX_SEQ_KEY } from './outbox-meta';

/** What the mechanic entered: the body of POST /repairs without recorded_at, which the outbox fixes. */
export type RepairInput = Omit<RepairEntry, 'recorded_at'>;

export function normaliseKodeId(kodeId: string): string {
  return kodeId.trim().toUpperCase();
}

function toEntry(input: RepairInput, recordedAt: string): OutboxEntry['entry'] {
  return {
    ...input,
    kode_id: normaliseKodeId(input.kode_id),
    note: input.note ?? '',
    recorded_at: recordedAt,
  };
}

export interface NewOutboxEntry {
  key: string;
  partnerId: string;
  input: RepairInput;
  /** ISO 8601: the moment the mechanic pressed Insert. */
  recordedAt: string;
  /** The odometer's photo taken with it, if any, already made small. */
  photo?: NewPhoto | undefined;
}

/** A photo as the form hands it over: encoded, its size known. */
export type NewPhoto = Pick<PhotoRow, 'blob' | 'type' | 'width' | 'height'>;

function photoRowOf(entry: Pick<OutboxEntry, 'key' | 'partnerId' | 'createdAt'>, photo: NewPhoto): PhotoRow {
  return {
    id: entry.key,
    entryKey: entry.key,
    partnerId: entry.partnerId,
    blob: photo.blob,
    type: photo.type,
    bytes: photo.blob.size,
    width: photo.width,
    height: photo.height,
    state: 'waiting',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: entry.createdAt,
  };
}

/** Inside a transaction over outbox and meta: takes the next sequence number. */
async function takeSeq(db: PortalDatabase): Promise<number> {
  const counter = (await db.meta.get(OUTBOX_SEQ_KEY))?.value;
  const highest = (await db.outbox.orderBy('seq').last())?.seq ?? 0;
  const seq = Math.max(typeof counter === 'number' ? counter : 0, highest) + 1;
  await db.meta.put({ key: OUTBOX_SEQ_KEY, value: seq });
  return seq;
}

/** Writes one entry with the next sequence number, and its photo if it has one, in one transaction. */
export async function addToOutbox(db: PortalDatabase, value: NewOutboxEntry): Promise<OutboxEntry> {
  return db.transaction('rw', db.outbox, db.meta, db.photos, async () => {
    const seq = await takeSeq(db);
    const row: OutboxEntry = {
      key: value.key,
      partnerId: value.partnerId,
      entry: toEntry(value.input, value.recordedAt),
      state: 'pending',
      seq,
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
      createdAt: value.recordedAt,
    };
    await db.outbox.add(row);
    if (value.photo) await db.photos.add(photoRowOf(row, value.photo));
    return row;
  });
}

// ---- Reads ----

export async function outboxEntry(db: PortalDatabase, key: string): Promise<OutboxEntry | null> {
  return (await db.outbox.get(key)) ?? null;
}

/** The partner's entries in the mechanic's order. */
export function partnerOutbox(db: PortalDatabase, partnerId: string): Promise<OutboxEntry[]> {
  return db.outbox.where('[partnerId+seq]').between([partnerId, Dexie.minKey], [partnerId, Dexie.maxKey]).toArray();
}

/** A vehicle's entries still to be sent: readings the server does not have yet. */
export function unsentEntriesOfVehicle(db: PortalDatabase, partnerId: string, kodeId: string): Promise<OutboxEntry[]> {
  return db.outbox
    .where('[partnerId+entry.kode_id]')
    .equals([partnerId, normaliseKodeId(kodeId)])
    .filter(isUnsent)
    .toArray();
}

/** A correction still to be sent: the repair it corrects will be superseded. */
function isUnsentCorrection(row: OutboxEntry): boolean {
  return isUnsent(row) && typeof row.entry.corrects === 'string';
}

/**
 * The partner's corrections still to be sent: the repairs they will supersede, whatever their vehicle.
 * Read on the corrections' own index (a row without `entry.corrects` is not in it): a few rows, not the
 * whole outbox, for the history's page and the timeline alike.
 */
export async function unsentCorrections(db: PortalDatabase, partnerId: string): Promise<OutboxEntry[]> {
  const corrections = await db.outbox
    .where('[partnerId+entry.corrects]')
    .between([partnerId, Dexie.minKey], [partnerId, Dexie.maxKey])
    .toArray();
  return corrections.filter(isUnsentCorrection);
}

/** The partner's `limit` queued entries recorded last, newest first: the history's page, from one index. */
export function newestQueued(db: PortalDatabase, partnerId: string, limit: number): Promise<OutboxEntry[]> {
  return db.outbox
    .where('[partnerId+entry.recorded_at]')
    .between([partnerId, Dexie.minKey], [partnerId, Dexie.maxKey])
    .reverse()
    .limit(limit)
    .toArray();
}

/** How many entries the partner's outbox holds, whatever their state: counted on an index, none read. */
export function queuedCount(db: PortalDatabase, partnerId: string): Promise<number> {
  return db.outbox.where('partnerId').equals(partnerId).count();
}

export interface OutboxCounts {
  /** Still to be sent. */
  unsent: number;
  /** Refused by the server: they stay until corrected or discarded. */
  rejected: number;
}

/**
 * Counted on an index, no entry read: the header's live query runs this again after every outbox
 * write, a thousand times and more while a long queue drains.
 */
export async function outboxCounts(db: PortalDatabase, partnerId: string): Promise<OutboxCounts> {
  const count = (state: OutboxState) => db.outbox.where('[partnerId+state]').equals([partnerId, state]).count();
  const [rejected, ...unsent] = await Promise.all([count('rejected'), ...UNSENT_STATES.map(count)]);
  return { unsent: unsent.reduce((total, n) => total + n, 0), rejected };
}

/** What the outbox says of the partner's queue, as the sync status (status.ts) shows it. */
export interface QueueFacts {
  waiting: number;
  rejected: number;
  oldestWaitingAt: string | null;
}

/** The partner's queue as the sync status shows it (status.ts): the counts, and since when the oldest entry waits. */
export async function outboxSummary(db: PortalDatabase, partnerId: string): Promise<QueueFacts> {
  const [counts, oldest] = await Promise.all([
    outboxCounts(db, partnerId),
    // In seq order, which follows createdAt: the first unsent entry is the oldest waiting.
    db.outbox
      .where('[partnerId+seq]')
      .between([partnerId, Dexie.minKey], [partnerId, Dexie.maxKey])
      .filter(isUnsent)
      .first(),
  ]);
  return { waiting: counts.unsent, rejected: counts.rejected, oldestWaitingAt: oldest?.createdAt ?? null };
}

/** Some of the partner's entries in one situation (in the mechanic's order, at most ATTENTION_SAMPLE), and how many in all. */
export interface EntrySample {
  count: number;
  entries: OutboxEntry[];
}

/** What the banner above the screens names (docs/ARCHITECTURE.md#entries-that-need-the-mechanic). */
export interface OutboxAttention {
  /** Pending or being sent, and in this outbox since before the cut-off. */
  stale: EntrySample & {
    /** The server's answer to one of them (a 5xx, a 429…), if any got one: not a network failure. */
    serverError: OutboxError | null;
  };
  rejected: EntrySample;
  waitingForSignIn: EntrySample;
}

export const ATTENTION_SAMPLE = 3;

async function sampleOfState(db: PortalDatabase, partnerId: string, state: OutboxState): Promise<EntrySample> {
  const rows = db.outbox.where('[partnerId+state]').equals([partnerId, state]);
  const [count, entries] = await Promise.all([rows.count(), rows.clone().limit(ATTENTION_SAMPLE).toArray()]);
  return { count, entries: entries.sort((a, b) => a.seq - b.seq) };
}

/**
 * The partner's entries that need the mechanic. Stale ones are read in seq order and the read stops at
 * the first entry that came in after the cut-off: seq follows createdAt (both are taken when the entry
 * enters this outbox), so a long queue of recent entries costs one row, not the whole queue.
 */
export async function outboxAttention(
  db: PortalDatabase,
  partnerId: string,
  staleBefore: string,
): Promise<OutboxAttention> {
  const old = await db.outbox
    .where('[partnerId+seq]')
    .between([partnerId, Dexie.minKey], [partnerId, Dexie.maxKey])
    .until((row) => row.createdAt >= staleBefore)
    .filter(isRetried)
    .toArray();
  const [rejected, waitingForSignIn] = await Promise.all([
    sampleOfState(db, partnerId, 'rejected'),
    sampleOfState(db, partnerId, 'waiting_for_sign_in'),
  ]);
  const serverError = old.find((row) => (row.lastError?.code ?? 0) > 0)?.lastError ?? null;
  return {
    stale: { count: old.length, entries: old.slice(0, ATTENTION_SAMPLE), serverError },
    rejected,
    waitingForSignIn,
  };
}

/**
 * Whether some of the partner's entries are left for a later try (pending, or being sent by another
 * sender): the background sync then asks the browser to fire again (background-worker.ts). Entries
 * waiting for a sign-in or refused are not: no retry can send them.
 */
export async function leftForLaterTry(db: PortalDatabase, partnerId: string): Promise<boolean> {
  const count = (state: OutboxState) => db.outbox.where('[partnerId+state]').equals([partnerId, state]).count();
  const counts = await Promise.all(RETRIED_STATES.map(count));
  return counts.some((n) => n > 0);
}

/**
 * Each vehicle's entries still to be sent, oldest first; vehicles in the order of their oldest entry.
 * Only a queue's head may go: the server receives a vehicle's readings in the order the mechanic
 * entered them (rejected entries are parked and hold nothing back).
 */
export function vehicleQueues(rows: readonly OutboxEntry[]): Map<string, OutboxEntry[]> {
  const queues = new Map<string, OutboxEntry[]>();
  for (const row of [...rows].sort((a, b) => a.seq - b.seq)) {
    if (!isUnsent(row)) continue;
    const vehicle = normaliseKodeId(row.entry.kode_id);
    const queue = queues.get(vehicle);
    if (queue) queue.push(row);
    else queues.set(vehicle, [row]);
  }
  return queues;
}

// ---- Sending: claim, then one outcome, each only if the claim still holds ----

/** An entry taken for sending, as the claim left it, with the sign-ins counted when its request left. */
export interface Claim {
  row: OutboxEntry;
  signIns: number;
  signOuts: number;
}

const signInsSoFar = (db: PortalDatabase) => countSoFar(db.meta, SIGN_INS_KEY);

/** Inside a transaction: the entry is still sending under this claim (same partner, same attempt). */
async function stillClaimed(db: PortalDatabase, claim: Claim): Promise<boolean> {
  const row = await db.outbox.get(claim.row.key);
  return (
    row !== undefined &&
    outboxEntryState(row) === 'sending' &&
    row.partnerId === claim.row.partnerId &&
    row.attempts === claim.row.attempts
  );
}

function updateIfClaimed(db: PortalDatabase, claim: Claim, changes: Partial<OutboxEntry>): Promise<void> {
  return db.transaction('rw', db.outbox, async () => {
    if (await stillClaimed(db, claim)) await db.outbox.update(claim.row.key, changes);
  });
}

/** Claims an entry for sending: pending → sending, only if it is still this partner's and pending. */
export async function claimForSending(db: PortalDatabase, key: string, partnerId: string): Promise<Claim | null> {
  return db.transaction('rw', db.outbox, db.meta, async () => {
    const row = await db.outbox.get(key);
    if (!row || row.partnerId !== partnerId || !mayMove(outboxEntryState(row), 'sending')) return null;
    await db.outbox.update(key, { state: 'sending' });
    return {
      row: { ...row, state: 'sending' },
      signIns: await signInsSoFar(db),
      signOuts: await countSoFar(db.meta, SIGN_OUTS_KEY),
    };
  });
}

/** The claim is given up before anything was sent: the entry is pending again, as it was. */
export function releaseClaim(db: PortalDatabase, claim: Claim): Promise<void> {
  return updateIfClaimed(db, claim, { state: 'pending' });
}

/**
 * The server stored it: out of the outbox and into the history, together. Whatever became of the entry
 * meanwhile (parked by another vehicle's 401, say), the server has it; an entry already gone (a history
 * refresh brought it, or the entry was corrected under a new key) leaves the history as it is. After a
 * sign-out since the claim, the partner's history was forgotten on purpose: it stays forgotten.
 */
export async function acknowledge(db: PortalDatabase, claim: Claim, record: RepairRecord): Promise<void> {
  await db.transaction('rw', db.outbox, db.history, db.meta, async () => {
    const row = await db.outbox.get(claim.row.key);
    if (!row || row.partnerId !== claim.row.partnerId || !mayMove(outboxEntryState(row), 'stored')) return;
    await db.outbox.delete(row.key);
    if ((await countSoFar(db.meta, SIGN_OUTS_KEY)) !== claim.signOuts) return;
    await db.history.put({ ...record, partnerId: row.partnerId });
    // A correction: the original is superseded from now on (the next refresh brings every new verdict).
    if (record.corrects) {
      await db.history
        .where('id')
        .equals(record.corrects)
        .filter((original) => original.partnerId === row.partnerId)
        .modify({ superseded_by: record.id, verdict: 'no_verdict', reasons: [], odometer_anomaly: false });
    }
  });
}

export function scheduleRetry(
  db: PortalDatabase,
  claim: Claim,
  error: OutboxError,
  nextAttemptAt: number,
): Promise<void> {
  return updateIfClaimed(db, claim, {
    state: 'pending',
    attempts: claim.row.attempts + 1,
    nextAttemptAt,
    lastError: error,
  });
}

export function markRejected(db: PortalDatabase, claim: Claim, error: OutboxError): Promise<void> {
  return updateIfClaimed(db, claim, { state: 'rejected', attempts: claim.row.attempts + 1, lastError: error });
}

/**
 * A 401 the client could not cure: this partner's unsent entries wait, visibly, for the next sign-in.
 * Unless a sign-in came after the request left: the 401 was about the old session, nothing is parked,
 * the entry is pending again and the answer is false.
 */
export async function parkUntilSignIn(db: PortalDatabase, claim: Claim, error: OutboxError): Promise<boolean> {
  return db.transaction('rw', db.outbox, db.meta, async () => {
    const claimed = await stillClaimed(db, claim);
    if ((await signInsSoFar(db)) !== claim.signIns) {
      if (claimed) await db.outbox.update(claim.row.key, { state: 'pending' });
      return false;
    }
    await db.outbox
      .where('partnerId')
      .equals(claim.row.partnerId)
      .filter((other) => mayMove(outboxEntryState(other), 'waiting_for_sign_in'))
      .modify({ state: 'waiting_for_sign_in' });
    if (claimed) await db.outbox.update(claim.row.key, { attempts: claim.row.attempts + 1, lastError: error });
    return true;
  });
}

/** Whether entries of the partner wait for the next sign-in because their session ended with `reason`. */
export async function parkedFor(db: PortalDatabase, partnerId: string, reason: string): Promise<boolean> {
  const parked = await db.outbox.where('[partnerId+state]').equals([partnerId, 'waiting_for_sign_in']).toArray();
  return parked.some((row) => row.lastError?.reason === reason);
}

/** A partner signed in: counted, and their waiting entries go again, straight away. */
export async function releaseAfterSignIn(db: PortalDatabase, partnerId: string): Promise<void> {
  await db.transaction('rw', db.outbox, db.meta, async () => {
    await db.meta.put({ key: SIGN_INS_KEY, value: (await signInsSoFar(db)) + 1 });
    await db.outbox
      .where('[partnerId+state]')
      .equals([partnerId, 'waiting_for_sign_in'])
      .modify({ state: 'pending', nextAttemptAt: 0 });
  });
}

/** A tab that died mid-send left entries 'sending'; under the lock nobody else is, so they are pending again. */
export async function recoverInterrupted(db: PortalDatabase): Promise<void> {
  await db.outbox.where('state').equals('sending').modify({ state: 'pending' });
}

// ---- The history and the mechanic's corrections ----

/** How an entry found in conflict with the server is refused: worded by the screens, from its reason. */
const CONFLICT_ERROR: OutboxError = { code: 422, reason: CONFLICT_REASON, message: '' };

/**
 * Repairs the server listed (a history refresh) go into the history; an entry still queued here that
 * the server turns out to hold (stored, but its answer never arrived) leaves the outbox in the same
 * transaction, so no reader ever sees one entry both queued and synced. A send of that entry still in
 * flight then finds nothing to update: the server answers it with the same stored repair.
 *
 * Only when the server holds the same entry: under its key the server may hold other values (an
 * edited hand-over file sent from another tablet, docs/ARCHITECTURE.md#the-hand-over-file). That
 * entry stays, refused for the conflict, beside the server's version, until the mechanic records it
 * as a correction or discards it; sending it would only earn the server's 422.
 */
export async function mergeServerRecords(
  db: PortalDatabase,
  partnerId: string,
  records: readonly RepairRecord[],
): Promise<void> {
  await db.transaction('rw', db.outbox, db.history, async () => {
    await db.history.bulkPut(records.map((record) => ({ ...record, partnerId })));
    const storedByKey = new Map(
      records.filter((record) => Boolean(record.idempotency_key)).map((record) => [record.idempotency_key, record]),
    );
    const held = await db.outbox
      .where('key')
      .anyOf([...storedByKey.keys()])
      .filter((row) => row.partnerId === partnerId)
      .toArray();
    const synced: string[] = [];
    for (const row of held) {
      const stored = storedByKey.get(row.key);
      if (!stored) continue;
      if (entryDifferences({ entry: row.entry }, { record: stored }).length === 0) synced.push(row.key);
      else if (mayMove(outboxEntryState(row), 'in_conflict'))
        await db.outbox.update(row.key, { state: 'rejected', lastError: CONFLICT_ERROR });
    }
    await db.outbox.bulkDelete(synced);
  });
}

/**
 * A refused entry of this partner (or one in conflict, if `inConflictOnly`), queued again as `entryOf`
 * makes it, under a new key (the server answers 422 to the old key with a different body), in one
 * transaction.
 */
function sendAgainAs(
  db: PortalDatabase,
  value: { key: string; newKey: string; partnerId: string },
  inConflictOnly: boolean,
  entryOf: (row: OutboxEntry) => OutboxEntry['entry'],
): Promise<OutboxEntry | null> {
  return db.transaction('rw', db.outbox, db.photos, async () => {
    const row = await db.outbox.get(value.key);
    if (!row || row.partnerId !== value.partnerId) return null;
    const state = outboxEntryState(row);
    if (!waitsForMechanic(state) || (inConflictOnly && state !== 'in_conflict')) return null;
    const next: OutboxEntry = {
      ...row,
      key: value.newKey,
      entry: entryOf(row),
      state: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
    };
    await db.outbox.delete(row.key);
    await db.outbox.add(next);
    // Its photo goes with it, joined to whatever the new key is stored as.
    await db.photos.where('entryKey').equals(row.key).modify({ entryKey: next.key });
    return next;
  });
}

/**
 * A rejected entry, corrected: it goes again under a new key but keeps its recorded_at and its place
 * in the vehicle's order.
 */
export function replaceRejected(
  db: PortalDatabase,
  value: { key: string; newKey: string; partnerId: string; input: RepairInput },
): Promise<OutboxEntry | null> {
  return sendAgainAs(
    db,
    value,
    false,
    // A refused correction stays a correction of the same repair: only its values change.
    (row) =>
      toEntry(
        { ...value.input, corrects: row.entry.corrects, correction_reason: row.entry.correction_reason },
        row.entry.recorded_at,
      ),
  );
}

/** A correction of one of the partner's stored repairs: what it corrects, and why. */
export type CorrectionInput = RepairInput & { corrects: string; correction_reason: CorrectionReason };

/**
 * An entry refused for a conflict, recorded as a correction of the repair the server stored under its
 * key: the correction takes its place in one transaction (a new key, its place in the vehicle's order,
 * and the stored repair's recorded_at: a correction keeps the moment of what it corrects).
 */
export function replaceConflictWithCorrection(
  db: PortalDatabase,
  value: { key: string; newKey: string; partnerId: string; input: CorrectionInput; recordedAt: string },
): Promise<OutboxEntry | null> {
  return sendAgainAs(db, value, true, () => toEntry(value.input, value.recordedAt));
}

/** Drops a rejected entry and its photo (the mechanic confirmed). Entries still to be sent cannot be discarded. */
export async function discardRejected(db: PortalDatabase, key: string, partnerId: string): Promise<boolean> {
  return db.transaction('rw', db.outbox, db.photos, async () => {
    const row = await db.outbox.get(key);
    if (!row || row.partnerId !== partnerId || !mayMove(outboxEntryState(row), 'discarded')) return false;
    await db.outbox.delete(key);
    await db.photos.where('entryKey').equals(key).delete();
    return true;
  });
}

/** The mechanic asked to send now: the partner's pending entries are due at once, whatever their backoff. */
export async function makeDueNow(db: PortalDatabase, partnerId: string): Promise<void> {
  await db.outbox.where('[partnerId+state]').equals([partnerId, 'pending']).modify({ nextAttemptAt: 0 });
}

// ---- The hand-over file (docs/ARCHITECTURE.md#the-hand-over-file) ----

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
 * any other goes out as pending. createdAt is the moment of import: the stale alert counts time in this
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
      const row: OutboxEntry = {
        key: value.key,
        partnerId,
        entry: value.entry,
        state: value.rejected ? 'rejected' : 'pending',
        seq: await takeSeq(db),
        attempts: value.rejected ? 1 : 0,
        nextAttemptAt: 0,
        lastError: value.lastError,
        createdAt: importedAt,
      };
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
