/**
 * The outbox's writes (docs/ARCHITECTURE.md#the-offline-model-in-practice): Insert, the sender's claims
 * and outcomes, the history's merge, the mechanic's corrections. With outbox-handover.ts (a hand-over
 * file's import) the only code that writes to the outbox table; its reads are in outbox-queries.ts, its
 * counters and upgrades in outbox-meta.ts. Each write is a single IndexedDB transaction, so an entry is
 * never half written, and a repair leaves the outbox only in the same transaction that puts the
 * server's record into the history.
 *
 * Every change of an entry's state is what transition.ts answers, written by `move` below.
 *
 * An entry being sent is held by a Claim. Whatever the answer, it changes the entry only if the entry
 * is still as the claim left it: meanwhile another vehicle's 401 may have parked it, a history refresh
 * may have found it on the server, or a newer sign-in may have made the answer stale.
 */
import { normaliseKodeId, type CorrectionReason, type RepairEntry, type RepairRecord } from '../../../contract';
import type { OutboxEntry, OutboxError, PhotoRow, PortalDatabase } from '../db';
import { entryDifferences } from './entry-conflict';
import { countSoFar, OUTBOX_SEQ_KEY, SIGN_INS_KEY, SIGN_OUTS_KEY } from './outbox-meta';
import { arrival, transition, type EntryEvent, type Moved } from './transition';

export { CONFLICT_REASON, isConflict } from './entry-state';
export { OUTBOX_SEQ_KEY } from './outbox-meta';

/** What the mechanic entered: the body of POST /repairs without recorded_at, which the outbox fixes. */
export type RepairInput = Omit<RepairEntry, 'recorded_at'>;

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

export function photoRowOf(entry: Pick<OutboxEntry, 'key' | 'partnerId' | 'createdAt'>, photo: NewPhoto): PhotoRow {
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
export async function takeSeq(db: PortalDatabase): Promise<number> {
  const counter = (await db.meta.get(OUTBOX_SEQ_KEY))?.value;
  const highest = (await db.outbox.orderBy('seq').last())?.seq ?? 0;
  const seq = Math.max(typeof counter === 'number' ? counter : 0, highest) + 1;
  await db.meta.put({ key: OUTBOX_SEQ_KEY, value: seq });
  return seq;
}

/**
 * Inside a transaction over the outbox (and photos, when an entry may take a new key): the entry as
 * `transition` moves it, written; null, and nothing written, when the event cannot happen to it.
 */
export async function move(db: PortalDatabase, row: OutboxEntry, event: EntryEvent): Promise<Moved | null> {
  const moved = transition(row, event);
  if (!moved) return null;
  if (moved.kind === 'left') {
    await db.outbox.delete(row.key);
  } else if (moved.entry.key !== row.key) {
    await db.outbox.delete(row.key);
    await db.outbox.add(moved.entry);
    // Its photo goes with it, joined to whatever the new key is stored as.
    await db.photos.where('entryKey').equals(row.key).modify({ entryKey: moved.entry.key });
  } else {
    // Only the fields that moved: a live read over the outbox re-runs only when what it reads changed.
    await db.outbox.update(row.key, changedFields(row, moved.entry));
  }
  return moved;
}

function changedFields(before: OutboxEntry, after: OutboxEntry): Partial<OutboxEntry> {
  const fields = Object.keys(after) as (keyof OutboxEntry)[];
  return Object.fromEntries(fields.filter((field) => before[field] !== after[field]).map((f) => [f, after[f]]));
}

/** Inside a transaction: `event` happens to each of `rows` it can happen to. */
async function moveEach(db: PortalDatabase, rows: readonly OutboxEntry[], event: EntryEvent): Promise<void> {
  for (const row of rows) await move(db, row, event);
}

/** Writes one entry with the next sequence number, and its photo if it has one, in one transaction. */
export async function addToOutbox(db: PortalDatabase, value: NewOutboxEntry): Promise<OutboxEntry> {
  return db.transaction('rw', db.outbox, db.meta, db.photos, async () => {
    const row = arrival({
      key: value.key,
      partnerId: value.partnerId,
      entry: toEntry(value.input, value.recordedAt),
      seq: await takeSeq(db),
      createdAt: value.recordedAt,
    });
    await db.outbox.add(row);
    if (value.photo) await db.photos.add(photoRowOf(row, value.photo));
    return row;
  });
}

// ---- Sending: claim, then one outcome, each only if the claim still holds ----

/** An entry taken for sending, as the claim left it, with the sign-ins counted when its request left. */
export interface Claim {
  row: OutboxEntry;
  signIns: number;
  signOuts: number;
}

const signInsSoFar = (db: PortalDatabase) => countSoFar(db.meta, SIGN_INS_KEY);

/** Inside a transaction: the entry, if it is still sending under this claim (same partner, same attempt). */
async function stillClaimed(db: PortalDatabase, claim: Claim): Promise<OutboxEntry | null> {
  const row = await db.outbox.get(claim.row.key);
  const held =
    row !== undefined &&
    row.state === 'sending' &&
    row.partnerId === claim.row.partnerId &&
    row.attempts === claim.row.attempts;
  return held ? row : null;
}

/** `event` happens to the claimed entry, if the claim still holds. */
function moveIfClaimed(db: PortalDatabase, claim: Claim, event: EntryEvent): Promise<void> {
  return db.transaction('rw', db.outbox, db.photos, async () => {
    const row = await stillClaimed(db, claim);
    if (row) await move(db, row, event);
  });
}

/** Claims an entry for sending: queued → sending, only if it is still this partner's and queued. */
export async function claimForSending(db: PortalDatabase, key: string, partnerId: string): Promise<Claim | null> {
  return db.transaction('rw', db.outbox, db.meta, async () => {
    const row = await db.outbox.get(key);
    if (!row || row.partnerId !== partnerId) return null;
    const moved = await move(db, row, { type: 'claimed' });
    if (moved?.kind !== 'kept') return null;
    return {
      row: moved.entry,
      signIns: await signInsSoFar(db),
      signOuts: await countSoFar(db.meta, SIGN_OUTS_KEY),
    };
  });
}

/** The claim is given up before anything was sent: the entry is queued again, as it was. */
export function releaseClaim(db: PortalDatabase, claim: Claim): Promise<void> {
  return moveIfClaimed(db, claim, { type: 'released' });
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
    if (!row || row.partnerId !== claim.row.partnerId || !(await move(db, row, { type: 'stored' }))) return;
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
  return moveIfClaimed(db, claim, { type: 'failed', error, nextAttemptAt });
}

export function markRejected(db: PortalDatabase, claim: Claim, error: OutboxError): Promise<void> {
  return moveIfClaimed(db, claim, { type: 'refused', error });
}

/**
 * A 401 the client could not cure: this partner's unsent entries wait, visibly, for the next sign-in.
 * Unless a sign-in came after the request left: the 401 was about the old session, nothing is parked,
 * the entry is queued again and the answer is false.
 */
export async function parkUntilSignIn(db: PortalDatabase, claim: Claim, error: OutboxError): Promise<boolean> {
  return db.transaction('rw', db.outbox, db.meta, async () => {
    const claimed = await stillClaimed(db, claim);
    if ((await signInsSoFar(db)) !== claim.signIns) {
      if (claimed) await move(db, claimed, { type: 'released' });
      return false;
    }
    for (const row of await db.outbox.where('partnerId').equals(claim.row.partnerId).toArray()) {
      const own = claimed !== null && row.key === claimed.key;
      await move(db, row, own ? { type: 'session_lost', error } : { type: 'session_lost' });
    }
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
    const waiting = await db.outbox.where('[partnerId+state]').equals([partnerId, 'waiting_for_sign_in']).toArray();
    await moveEach(db, waiting, { type: 'signed_in' });
  });
}

/** A tab that died mid-send left entries 'sending'; under the lock nobody else is, so they are queued again. */
export async function recoverInterrupted(db: PortalDatabase): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    await moveEach(db, await db.outbox.where('state').equals('sending').toArray(), { type: 'released' });
  });
}

// ---- The history and the mechanic's corrections ----

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
    for (const row of held) {
      const stored = storedByKey.get(row.key);
      if (!stored) continue;
      const same = entryDifferences({ entry: row.entry }, { record: stored }).length === 0;
      await move(db, row, same ? { type: 'stored' } : { type: 'found_in_conflict' });
    }
  });
}

/**
 * A refused entry of this partner (or one in conflict), queued again as `entryOf` makes it, under a new
 * key (the server answers 422 to the old key with a different body), with its photo, in one transaction.
 */
function sendAgainAs(
  db: PortalDatabase,
  value: { key: string; newKey: string; partnerId: string },
  how: 'corrected' | 'recorded_as_correction',
  entryOf: (row: OutboxEntry) => OutboxEntry['entry'],
): Promise<OutboxEntry | null> {
  return db.transaction('rw', db.outbox, db.photos, async () => {
    const row = await db.outbox.get(value.key);
    if (!row || row.partnerId !== value.partnerId) return null;
    const moved = await move(db, row, { type: how, key: value.newKey, entry: entryOf(row) });
    return moved?.kind === 'kept' ? moved.entry : null;
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
    'corrected',
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
  return sendAgainAs(db, value, 'recorded_as_correction', () => toEntry(value.input, value.recordedAt));
}

/** Drops a rejected entry and its photo (the mechanic confirmed). Entries still to be sent cannot be discarded. */
export async function discardRejected(db: PortalDatabase, key: string, partnerId: string): Promise<boolean> {
  return db.transaction('rw', db.outbox, db.photos, async () => {
    const row = await db.outbox.get(key);
    if (!row || row.partnerId !== partnerId || !(await move(db, row, { type: 'discarded' }))) return false;
    await db.photos.where('entryKey').equals(key).delete();
    return true;
  });
}

/** The mechanic asked to send now: the partner's queued entries are due at once, whatever their backoff. */
export async function makeDueNow(db: PortalDatabase, partnerId: string): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    const queued = await db.outbox.where('[partnerId+state]').equals([partnerId, 'queued']).toArray();
    await moveEach(db, queued, { type: 'due_now' });
  });
}
