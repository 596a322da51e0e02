/**
 * The outbox's storage operations (docs/ARCHITECTURE.md#the-offline-model-in-practice). Each one is a single IndexedDB
 * transaction, so an entry is never half written, and a repair leaves the outbox only in the
 * same transaction that puts the server's record into the history.
 */
import Dexie from 'dexie';
import type { RepairEntry, RepairRecord } from '../../../contract';
import { OUTBOX_SEQ_KEY, type OutboxEntry, type OutboxError, type OutboxState, type PortalDatabase } from '../db';

/** What the mechanic entered: the body of POST /repairs without recorded_at, which the outbox fixes. */
export type RepairInput = Omit<RepairEntry, 'recorded_at'>;

/** States in which an entry still has to reach the server and holds back later entries of its vehicle. */
export const UNSENT_STATES: readonly OutboxState[] = ['pending', 'sending', 'waiting_for_sign_in'];

export function isUnsent(entry: Pick<OutboxEntry, 'state'>): boolean {
  return UNSENT_STATES.includes(entry.state);
}

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
}

/** Writes one entry with the next sequence number, in one transaction. */
export async function addToOutbox(db: PortalDatabase, value: NewOutboxEntry): Promise<OutboxEntry> {
  return db.transaction('rw', db.outbox, db.meta, async () => {
    const counter = (await db.meta.get(OUTBOX_SEQ_KEY))?.value;
    const highest = (await db.outbox.orderBy('seq').last())?.seq ?? 0;
    const seq = Math.max(typeof counter === 'number' ? counter : 0, highest) + 1;
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
    await db.meta.put({ key: OUTBOX_SEQ_KEY, value: seq });
    await db.outbox.add(row);
    return row;
  });
}

/** The partner's entries in the mechanic's order. */
export function partnerOutbox(db: PortalDatabase, partnerId: string): Promise<OutboxEntry[]> {
  return db.outbox.where('[partnerId+seq]').between([partnerId, Dexie.minKey], [partnerId, Dexie.maxKey]).toArray();
}

/**
 * For each vehicle, its oldest entry still to be sent: the only one that may go now, so the
 * server receives a vehicle's readings in the order the mechanic entered them. Rejected entries
 * are parked and hold nothing back.
 */
export function vehicleHeads(rows: readonly OutboxEntry[]): OutboxEntry[] {
  const heads = new Map<string, OutboxEntry>();
  for (const row of [...rows].sort((a, b) => a.seq - b.seq)) {
    if (!isUnsent(row)) continue;
    const vehicle = normaliseKodeId(row.entry.kode_id);
    if (!heads.has(vehicle)) heads.set(vehicle, row);
  }
  return [...heads.values()];
}

/**
 * Each vehicle's entries still to be sent, oldest first; vehicles in the order of their oldest entry.
 * Only a queue's head may go: the rest wait for it (rejected entries are parked and hold nothing back).
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

/** A tab that died mid-send left entries 'sending'; under the lock nobody else is, so they are pending again. */
export async function recoverInterrupted(db: PortalDatabase): Promise<number> {
  return db.outbox.where('state').equals('sending').modify({ state: 'pending' });
}

/** Claims an entry for sending: pending → sending, only if it is still this partner's and pending. */
export async function claimForSending(db: PortalDatabase, key: string, partnerId: string): Promise<OutboxEntry | null> {
  return db.transaction('rw', db.outbox, async () => {
    const row = await db.outbox.get(key);
    if (!row || row.partnerId !== partnerId || row.state !== 'pending') return null;
    await db.outbox.update(key, { state: 'sending' });
    return { ...row, state: 'sending' };
  });
}

/** The server stored it: out of the outbox and into the history, together. */
export async function acknowledge(db: PortalDatabase, row: OutboxEntry, record: RepairRecord): Promise<void> {
  await db.transaction('rw', db.outbox, db.history, async () => {
    await db.outbox.delete(row.key);
    await db.history.put({ ...record, partnerId: row.partnerId });
  });
}

/**
 * Repairs the server listed (a history refresh) go into the history; an entry still queued here that
 * the server turns out to hold (stored, but its answer never arrived) leaves the outbox in the same
 * transaction, so no reader ever sees one entry both queued and synced. A send of that entry still in
 * flight then finds nothing to update: the server answers it with the same stored repair.
 */
export async function mergeServerRecords(
  db: PortalDatabase,
  partnerId: string,
  records: readonly RepairRecord[],
): Promise<void> {
  await db.transaction('rw', db.outbox, db.history, async () => {
    await db.history.bulkPut(records.map((record) => ({ ...record, partnerId })));
    const keys = records.map((record) => record.idempotency_key).filter(Boolean);
    const held = await db.outbox
      .where('key')
      .anyOf(keys)
      .filter((row) => row.partnerId === partnerId)
      .primaryKeys();
    await db.outbox.bulkDelete(held);
  });
}

export async function scheduleRetry(
  db: PortalDatabase,
  row: OutboxEntry,
  error: OutboxError,
  nextAttemptAt: number,
): Promise<void> {
  await db.outbox.update(row.key, {
    state: 'pending',
    attempts: row.attempts + 1,
    nextAttemptAt,
    lastError: error,
  });
}

export async function markRejected(db: PortalDatabase, row: OutboxEntry, error: OutboxError): Promise<void> {
  await db.outbox.update(row.key, { state: 'rejected', attempts: row.attempts + 1, lastError: error });
}

/** A 401 the client could not cure: this partner's unsent entries wait, visibly, for the next sign-in. */
export async function parkUntilSignIn(db: PortalDatabase, row: OutboxEntry, error: OutboxError): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    await db.outbox
      .where('partnerId')
      .equals(row.partnerId)
      .filter((other) => other.state === 'pending' || other.state === 'sending')
      .modify({ state: 'waiting_for_sign_in' });
    await db.outbox.update(row.key, { attempts: row.attempts + 1, lastError: error });
  });
}

/** After a sign-in: the partner's waiting entries go again, straight away. */
export async function releaseWaiting(db: PortalDatabase, partnerId: string): Promise<number> {
  return db.outbox
    .where('[partnerId+state]')
    .equals([partnerId, 'waiting_for_sign_in'])
    .modify({ state: 'pending', nextAttemptAt: 0 });
}

/**
 * A rejected entry, corrected: it goes again under a NEW key (the server answers 422 to the old key
 * with a different body) but keeps its recorded_at and its place in the vehicle's order.
 */
export async function replaceRejected(
  db: PortalDatabase,
  value: { key: string; newKey: string; partnerId: string; input: RepairInput },
): Promise<OutboxEntry | null> {
  return db.transaction('rw', db.outbox, async () => {
    const row = await db.outbox.get(value.key);
    if (!row || row.partnerId !== value.partnerId || row.state !== 'rejected') return null;
    const next: OutboxEntry = {
      ...row,
      key: value.newKey,
      entry: toEntry(value.input, row.entry.recorded_at),
      state: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
    };
    await db.outbox.delete(row.key);
    await db.outbox.add(next);
    return next;
  });
}

/** Drops a rejected entry (the mechanic confirmed). Entries still to be sent cannot be discarded. */
export async function discardRejected(db: PortalDatabase, key: string, partnerId: string): Promise<boolean> {
  return db.transaction('rw', db.outbox, async () => {
    const row = await db.outbox.get(key);
    if (!row || row.partnerId !== partnerId || row.state !== 'rejected') return false;
    await db.outbox.delete(key);
    return true;
  });
}
