/**
 * What the outbox holds, read (docs/ARCHITECTURE.md#the-offline-model-in-practice): an entry, a partner's
 * entries, a vehicle's unsent ones, the counts the header and statistics show, the entries that need
 * the mechanic. Reads only: every write is in outbox.ts.
 */
import Dexie from 'dexie';
import { normaliseKodeId } from '../../../contract';
import type { OutboxEntry, OutboxError, OutboxState, PortalDatabase } from '../db';
import { isRetried, isUnsent, PARKED_STATES, RETRIED_STATES, UNSENT_STATES } from './entry-state';

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
  /** Refused by the server (or in conflict with it): they stay until corrected or discarded. */
  rejected: number;
}

/**
 * Counted on an index, no entry read: the header's live query runs this again after every outbox
 * write, a thousand times and more while a long queue drains.
 */
export async function outboxCounts(db: PortalDatabase, partnerId: string): Promise<OutboxCounts> {
  const count = (states: readonly OutboxState[]) => inStates(db, partnerId, states).count();
  const [unsent, rejected] = await Promise.all([count(UNSENT_STATES), count(PARKED_STATES)]);
  return { unsent, rejected };
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

/** The partner's entries in these states, on the outbox's [partnerId+state] index. */
function inStates(db: PortalDatabase, partnerId: string, states: readonly OutboxState[]) {
  return db.outbox.where('[partnerId+state]').anyOf(states.map((state) => [partnerId, state]));
}

async function sampleOfStates(
  db: PortalDatabase,
  partnerId: string,
  states: readonly OutboxState[],
): Promise<EntrySample> {
  const rows = inStates(db, partnerId, states);
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
    sampleOfStates(db, partnerId, PARKED_STATES),
    sampleOfStates(db, partnerId, ['waiting_for_sign_in']),
  ]);
  const serverError = old.find((row) => (row.lastError?.code ?? 0) > 0)?.lastError ?? null;
  return {
    stale: { count: old.length, entries: old.slice(0, ATTENTION_SAMPLE), serverError },
    rejected,
    waitingForSignIn,
  };
}

/**
 * Whether some of the partner's entries are left for a later try (queued, or being sent by another
 * sender): the background sync then asks the browser to fire again (background-worker.ts). Entries
 * waiting for a sign-in or refused are not: no retry can send them.
 */
export async function leftForLaterTry(db: PortalDatabase, partnerId: string): Promise<boolean> {
  return (await inStates(db, partnerId, RETRIED_STATES).count()) > 0;
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
