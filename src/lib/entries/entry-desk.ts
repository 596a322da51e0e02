/**
 * What the mechanic does to entries (docs/ARCHITECTURE.md#the-entries-module): Insert, a refused entry
 * corrected, an entry in conflict recorded as a correction. Each writes the outbox first, asks the
 * sender for a pass, then waits a while for the first answer (SubmitOutcome).
 */
import type { OutboxEntry, PortalDatabase } from '../db';
import type { KickReason, Scheduler } from './engine-types';
import { waitsForMechanic } from './entry-state';
import {
  addToOutbox,
  replaceConflictWithCorrection,
  replaceRejected,
  type CorrectionInput,
  type NewPhoto,
  type RepairInput,
} from './outbox';
import { outboxEntry } from './outbox-queries';
import { SYNC_POLICY } from './policy';

/** What the mechanic's actions need of the sender: its database, keys, clock, and a pass on demand. */
export interface EntryDesk {
  db: PortalDatabase;
  uuid(): string;
  scheduler: Scheduler;
  kick(reason: KickReason): Promise<void>;
  /** Entries wait on the tablet (SyncEngineOptions.onWaiting). */
  onWaiting(): void;
}

/** `photoLeftOut`: the tablet had no room for the entry's photo, so the entry was kept without it. */
export type SubmitOutcome = (
  | { kind: 'stored'; entry: OutboxEntry }
  | { kind: 'queued'; entry: OutboxEntry }
  | { kind: 'rejected'; entry: OutboxEntry }
) & { photoLeftOut?: boolean };

/** IndexedDB out of room (Dexie wraps the browser's error, keeping its name in `inner`). */
function isQuotaError(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = (current as { inner?: unknown }).inner) {
    if (current.name === 'QuotaExceededError') return true;
  }
  return false;
}

/**
 * Insert: the entry is in the outbox (one transaction) before anything is sent; then wait a while for
 * the first attempt: the answer says whether the server has it, refused it, or whether it stays
 * queued on the tablet (offline, slow, or behind an older entry).
 * `recordedAt`: now, unless the entry corrects a reading taken earlier (it keeps that reading's moment).
 * `photo`: the odometer's, written with the entry and sent after it.
 */
export async function insertEntry(
  desk: EntryDesk,
  partnerId: string,
  input: RepairInput,
  recordedAt?: string,
  photo?: NewPhoto,
): Promise<SubmitOutcome> {
  const value = {
    key: desk.uuid(),
    partnerId,
    input,
    recordedAt: recordedAt ?? new Date(desk.scheduler.now()).toISOString(),
  };
  let entry: OutboxEntry;
  let photoLeftOut = false;
  try {
    entry = await addToOutbox(desk.db, { ...value, photo });
  } catch (error) {
    // A photo never costs an entry: with no room for both, the reading is kept alone.
    if (!photo || !isQuotaError(error)) throw error;
    entry = await addToOutbox(desk.db, value);
    photoLeftOut = true;
  }
  desk.onWaiting();
  const outcome = await outcomeOf(desk, entry);
  return photoLeftOut ? { ...outcome, photoLeftOut } : outcome;
}

/** A rejected entry, corrected by the mechanic, goes again under a new key with its original recorded_at. */
export async function resubmitEntry(
  desk: EntryDesk,
  partnerId: string,
  key: string,
  input: RepairInput,
): Promise<SubmitOutcome | null> {
  const entry = await replaceRejected(desk.db, { key, newKey: desk.uuid(), partnerId, input });
  if (!entry) return null;
  desk.onWaiting();
  return outcomeOf(desk, entry);
}

/**
 * An entry refused because the server holds its key with other values, recorded instead as a
 * correction of that stored repair: a new key, the stored repair's recorded_at.
 */
export async function correctConflictingEntry(
  desk: EntryDesk,
  partnerId: string,
  key: string,
  input: CorrectionInput,
  recordedAt: string,
): Promise<SubmitOutcome | null> {
  const entry = await replaceConflictWithCorrection(desk.db, {
    key,
    newKey: desk.uuid(),
    partnerId,
    input,
    recordedAt,
  });
  if (!entry) return null;
  desk.onWaiting();
  return outcomeOf(desk, entry);
}

async function outcomeOf(desk: EntryDesk, entry: OutboxEntry): Promise<SubmitOutcome> {
  let handle: unknown = null;
  const timeout = new Promise<void>((resolve) => {
    handle = desk.scheduler.setTimeout(resolve, SYNC_POLICY.firstAnswerWaitMs);
  });
  await Promise.race([desk.kick('insert'), timeout]);
  desk.scheduler.clearTimeout(handle);
  const current = await outboxEntry(desk.db, entry.key);
  if (!current) return { kind: 'stored', entry };
  if (waitsForMechanic(current.state)) return { kind: 'rejected', entry: current };
  return { kind: 'queued', entry: current };
}
