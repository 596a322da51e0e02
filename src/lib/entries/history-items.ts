/**
 * The history's items (docs/PRODUCT.md#history-tab), made from what the tablet holds: a repair the
 * server stored, or an entry still in the outbox, with its status, photo, verdict and, when the server
 * holds its key with other values, both versions. Pure: history.ts reads the rows and calls these.
 */
import {
  CORRECTION_WINDOW_MS,
  type CorrectionReason,
  type ReadingReason,
  type ReadingVerdictCode,
  type RepairEntry,
  type RepairRecord,
  type RepairType,
} from '../../../contract';
import type { OutboxEntry, OutboxError, PhotoRow } from '../db';
import { entryDifferences, type EntryDifference } from './entry-conflict';
import { entryStatusLabel, storedEntryState, type EntryStatusLabel } from './entry-state';

/** A refused entry whose key the server holds with other values: both versions, and the way out. */
export interface EntryConflict {
  /** The repair the server stored under the entry's key; null until a history refresh brings it. */
  stored: RepairRecord | null;
  /** `here`: this tablet's value; `there`: the server's. */
  differences: EntryDifference[];
  /** Until when the stored repair can be corrected with this tablet's values; null when it cannot. */
  correctableUntil: string | null;
}

/**
 * The odometer's photo of an entry, where it is (docs/PRODUCT.md#odometer-photo): on the tablet with an
 * entry not sent yet, sending once the server has the entry, sent once the server has the photo too, or
 * refused by the server. `localId` names it on the tablet, `repairId` on the server.
 */
export type HistoryPhoto = { width: number; height: number } & (
  | { state: 'on_tablet' | 'sending'; localId: string }
  | { state: 'refused'; localId: string; error: OutboxError | null }
  | { state: 'sent'; repairId: string }
);

export interface HistoryItem {
  /** The server's id for a synced repair; the Idempotency-Key for a queued one. */
  id: string;
  status: EntryStatusLabel;
  kodeId: string;
  odometer: number;
  repairType: RepairType | null;
  recordedAt: string;
  /** The server's verdict on the reading (docs/PRODUCT.md#odometer-plausibility); null until it has judged it. */
  verdict: ReadingVerdictCode | null;
  reasons: ReadingReason[];
  /** Replaced by a correction: stored, or queued on this tablet. */
  superseded: 'stored' | 'queued' | null;
  /** This entry corrects another one, for this reason. */
  correctionReason: CorrectionReason | null;
  /** Synced and standing: the last moment it can be corrected (ISO 8601); null otherwise. */
  correctableUntil: string | null;
  /** Queued entries only: why the last attempt failed. */
  lastError: OutboxError | null;
  /** Queued entries only: what was entered, for a correction. */
  entry: (RepairEntry & { recorded_at: string }) | null;
  /** Synced entries only: the stored repair, what a correction starts from. */
  record: RepairRecord | null;
  /** Queued entries only: refused because the server holds its key with other values. */
  conflict: EntryConflict | null;
  /** Synced entries only: this tablet holds other values under its key (a refused entry, with `conflict`). */
  otherVersionHere: boolean;
  /** The odometer's photo, if the entry has one. */
  photo: HistoryPhoto | null;
}

export interface HistoryPage {
  items: HistoryItem[];
  /** Everything this tablet holds for the partner (synced and queued). */
  total: number;
  /** When the newest repairs were last fetched from the server (ISO 8601), null if never. */
  refreshedAt: string | null;
}

export function queuedItem(
  row: OutboxEntry,
  stored: RepairRecord | null,
  typeById: ReadonlyMap<string, RepairType>,
  correctedHere: ReadonlySet<string | undefined>,
  photo: HistoryPhoto | null,
): HistoryItem {
  return {
    id: row.key,
    status: entryStatusLabel(row.state),
    kodeId: row.entry.kode_id,
    odometer: row.entry.odometer,
    repairType: typeById.get(row.entry.repair_type_id) ?? null,
    recordedAt: row.entry.recorded_at,
    verdict: null,
    reasons: [],
    superseded: null,
    correctionReason: row.entry.correction_reason ?? null,
    correctableUntil: null,
    lastError: row.lastError,
    entry: row.entry,
    record: null,
    conflict: conflictOf(row, stored, stored !== null && correctedHere.has(stored.id)),
    otherVersionHere: false,
    photo,
  };
}

/** A photo still on the tablet: waiting for its entry (`waiting`), or for its own upload. */
export function photoOf(row: PhotoRow | undefined, waiting: 'on_tablet' | 'sending'): HistoryPhoto | null {
  if (!row) return null;
  const size = { width: row.width, height: row.height };
  if (row.state === 'refused') return { ...size, state: 'refused', localId: row.id, error: row.lastError };
  return { ...size, state: waiting, localId: row.id };
}

/** The photo the server holds for a stored repair. */
export function sentPhotoOf(record: RepairRecord): HistoryPhoto | null {
  return record.photo
    ? { state: 'sent', repairId: record.id, width: record.photo.width, height: record.photo.height }
    : null;
}

/** The conflict a queued entry is in, if any; `correctionQueued`: the stored repair is being corrected already. */
function conflictOf(row: OutboxEntry, stored: RepairRecord | null, correctionQueued: boolean): EntryConflict | null {
  if (!stored && row.state !== 'in_conflict') return null;
  if (!stored) return { stored: null, differences: [], correctableUntil: null };
  return {
    stored,
    differences: entryDifferences({ entry: row.entry }, { record: stored }),
    correctableUntil: syncedItem(stored, correctionQueued).correctableUntil,
  };
}

/** The stored repair an item corrects, or null. */
function correctedId(item: HistoryItem): string | null {
  return item.record?.corrects ?? item.entry?.corrects ?? null;
}

/** Larger first: the server pages repairs of one moment by id, descending. */
function descending(a: string, b: string): number {
  return a > b ? -1 : a < b ? 1 : 0;
}

/**
 * Newest first by recorded_at. A correction keeps the moment of the reading it corrects
 * (docs/PRODUCT.md#corrections), so among items of one moment a chain of corrections stays together,
 * the latest correction above what it replaces and the original last; chains go by their original's id,
 * then by id, so the order never depends on where an item was read from (server or outbox).
 */
export function newestFirst(items: readonly HistoryItem[]): HistoryItem[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  const keyed = items.map((item) => {
    let original = item.id;
    let depth = 0;
    // Bounded by the number of items: a chain never loops, but a bad record must not hang the list.
    for (let corrects = correctedId(item); corrects !== null && depth < items.length; depth += 1) {
      original = corrects;
      const corrected = byId.get(corrects);
      corrects = corrected ? correctedId(corrected) : null;
    }
    return { item, at: Date.parse(item.recordedAt), original, depth };
  });
  keyed.sort(
    (a, b) =>
      b.at - a.at || descending(a.original, b.original) || b.depth - a.depth || descending(a.item.id, b.item.id),
  );
  return keyed.map(({ item }) => item);
}

export function syncedItem(row: RepairRecord, correctionQueued: boolean): HistoryItem {
  const state = storedEntryState(row);
  // A row kept from an older server may lack the verdict fields.
  const superseded = state === 'superseded' ? 'stored' : correctionQueued ? 'queued' : null;
  return {
    id: row.id,
    status: entryStatusLabel(state),
    kodeId: row.vehicle.kode_id,
    odometer: row.odometer,
    repairType: row.repair_type,
    recordedAt: row.recorded_at,
    verdict: row.verdict ?? null,
    reasons: row.reasons ?? [],
    superseded,
    correctionReason: row.correction_reason ?? null,
    correctableUntil: superseded === null ? correctionDeadline(row) : null,
    lastError: null,
    entry: null,
    record: row,
    conflict: null,
    otherVersionHere: false,
    photo: null,
  };
}

/**
 * Until when a stored repair can be corrected: the server's word (the window runs from the first
 * reading of a correction chain, docs/PRODUCT.md#corrections), or for a record kept from an older
 * server that did not say, seven days from its own storing.
 */
function correctionDeadline(row: RepairRecord): string | null {
  if (row.correctable_until !== undefined) return row.correctable_until;
  return new Date(Date.parse(row.created_at) + CORRECTION_WINDOW_MS).toISOString();
}
