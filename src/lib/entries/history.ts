/**
 * The history (docs/ARCHITECTURE.md#the-offline-model-in-practice): the partner's synced repairs (refreshed from GET /repairs and
 * merged by id) and their entries still in the outbox, in one list, newest first by recorded_at.
 * An entry is either queued or synced, never both: a refresh that brings a repair the outbox still
 * holds (its answer was lost) takes it out of the outbox in the same transaction, as does the sender's
 * acknowledgement, and the hand-over import skips one the history holds. With other values
 * (docs/ARCHITECTURE.md#the-hand-over-file) both stay: the queued entry, refused for the conflict,
 * carries the server's version to be compared and corrected. The newest page is fetched at sign-in
 * too (the dashboard's device fill), so the history shows offline from the first minute.
 */
import Dexie from 'dexie';
import { useEffect, useRef, useState } from 'react';
import { REPAIRS_PAGE_DEFAULT, type RepairRecord } from '../../../contract';
import { listRepairs, type ListRepairsParams } from './list-repairs';
import { db, partnerMetaKey, readMeta, writeMeta, type OutboxEntry } from '../db';
import { useLocalQuery } from '../local-query';
import { currentPartnerId, usePartnerId } from '../partner';
import { singleFlightBy } from '../single-flight';
import {
  newestFirst,
  photoOf,
  queuedItem,
  sentPhotoOf,
  syncedItem,
  type HistoryItem,
  type HistoryPage,
} from './history-items';
import { mergeServerRecords } from './outbox';
import { newestQueued, queuedCount, unsentCorrections } from './outbox-queries';

export {
  newestFirst,
  type EntryConflict,
  type HistoryItem,
  type HistoryPage,
  type HistoryPhoto,
} from './history-items';

type HistoryCursor = NonNullable<ListRepairsParams['before']>;

/**
 * Merges one page of the server's repairs. The page's last item is where the next older page starts:
 * kept apart from the local rows, whose oldest may be an entry recorded long ago and sent late.
 */
async function mergeRecords(partnerId: string, before?: HistoryCursor): Promise<number | null> {
  const result = await listRepairs(before ? { before, limit: REPAIRS_PAGE_DEFAULT } : {});
  if (result.status !== 'success') return null;
  await mergeServerRecords(db, partnerId, result.data);
  const last = result.data.at(-1);
  if (last) await writeMeta(partnerMetaKey('history-cursor', partnerId), { recordedAt: last.recorded_at, id: last.id });
  if (!before) await writeMeta(partnerMetaKey('history-refreshed-at', partnerId), new Date().toISOString());
  return result.data.length;
}

/**
 * One refresh per partner at a time: a screen asking while one is under way shares it; a partner
 * signing in meanwhile gets a refresh of their own, not the previous partner's.
 */
const mergeNewest = singleFlightBy(
  (partnerId: string) => partnerId,
  (partnerId: string) =>
    mergeRecords(partnerId)
      .then((count) => count !== null)
      .catch(() => false),
);

/** Merges the server's newest repairs into the local history; false when the server was not reached. */
export function refreshHistory(): Promise<boolean> {
  const partnerId = currentPartnerId();
  if (!partnerId) return Promise.resolve(false);
  return mergeNewest(partnerId);
}

/**
 * Fetches the page of repairs older than the last page fetched. Resolves to how many arrived (0 when the
 * server has no older ones) or null when it could not be asked.
 */
export async function loadOlderHistory(): Promise<number | null> {
  const partnerId = currentPartnerId();
  if (!partnerId) return null;
  const cursor = await readMeta<HistoryCursor>(partnerMetaKey('history-cursor', partnerId));
  return mergeRecords(partnerId, cursor ?? (await oldestHeld(partnerId))).catch(() => null);
}

/** Without a page fetched yet, the oldest repair held is the best guess. */
async function oldestHeld(partnerId: string): Promise<HistoryCursor | undefined> {
  const oldest = await db.history
    .where('[partnerId+recorded_at]')
    .between([partnerId, Dexie.minKey], [partnerId, Dexie.maxKey])
    .first();
  return oldest && { recordedAt: oldest.recorded_at, id: oldest.id };
}

interface QueuedRow {
  row: OutboxEntry;
  /** What the server stored under the entry's key, when it differs from the entry. */
  stored: RepairRecord | null;
}

/**
 * The queued entries with, for each one refused because the server holds its key with other values,
 * the server's version (once a history refresh has brought it). Only those are looked up: the server
 * never holds an entry with the same values while it is still queued (every write of the history takes
 * it out of the outbox in its transaction, the hand-over import skips it), so no other entry can have
 * a stored version. Each is looked up on its own, all at once: one cursor going from key to key would
 * wait for the database at every step.
 */
async function withStoredVersions(partnerId: string, rows: readonly OutboxEntry[]): Promise<QueuedRow[]> {
  return Promise.all(
    rows.map(async (row): Promise<QueuedRow> => {
      if (row.state !== 'in_conflict') return { row, stored: null };
      const found = await db.history.where('idempotency_key').equals(row.key).first();
      if (!found || found.partnerId !== partnerId) return { row, stored: null };
      const { partnerId: _partnerId, ...stored } = found;
      return { row, stored };
    }),
  );
}

/** One read transaction: the synced and queued parts come from the same moment, never half a merge. */
function readHistory(partnerId: string, limit: number): Promise<HistoryPage> {
  // The outbox through src/lib/sync's queries: only that folder touches its table (docs/ARCHITECTURE.md#layout).
  return db.transaction('r', ['history', 'outbox', 'repairTypes', 'meta', 'photos'], () =>
    readHistoryRows(partnerId, limit),
  );
}

/**
 * The page on screen, and nothing more: the `limit` newest synced repairs and the `limit` newest queued
 * entries, each from an index already in order, then the newest `limit` of both. Counts come from the
 * indexes: an entry is never both queued and synced with the same values (withStoredVersions).
 */
async function readHistoryRows(partnerId: string, limit: number): Promise<HistoryPage> {
  const range = db.history
    .where('[partnerId+recorded_at]')
    .between([partnerId, Dexie.minKey], [partnerId, Dexie.maxKey]);
  const [synced, syncedCount, newest, outboxCount, corrections, types, refreshedAt, photos] = await Promise.all([
    range.clone().reverse().limit(limit).toArray(),
    range.clone().count(),
    newestQueued(db, partnerId, limit),
    queuedCount(db, partnerId),
    unsentCorrections(db, partnerId),
    db.repairTypes.toArray(),
    readMeta<string>(partnerMetaKey('history-refreshed-at', partnerId)),
    db.photos.where('partnerId').equals(partnerId).toArray(),
  ]);
  const queued = await withStoredVersions(partnerId, newest);
  const photoByEntry = new Map(photos.map((photo) => [photo.entryKey, photo]));
  const typeById = new Map(types.map(({ position: _position, ...type }) => [type.id, type]));
  const correctedHere = new Set(corrections.map((row) => row.entry.corrects));
  const contested = new Set(queued.filter(({ stored }) => stored !== null).map(({ row }) => row.key));
  const items: HistoryItem[] = [
    ...synced.map(({ partnerId: _partnerId, ...row }) => ({
      ...syncedItem(row, correctedHere.has(row.id)),
      otherVersionHere: contested.has(row.idempotency_key),
      photo: photoOf(photoByEntry.get(row.idempotency_key), 'sending') ?? sentPhotoOf(row),
    })),
    ...queued.map(({ row, stored }) =>
      queuedItem(row, stored, typeById, correctedHere, photoOf(photoByEntry.get(row.key), 'on_tablet')),
    ),
  ];
  return {
    items: newestFirst(items).slice(0, limit),
    total: syncedCount + outboxCount,
    refreshedAt: refreshedAt ?? null,
  };
}

/**
 * The page as it was wherever nothing changed. The outbox is written while the history is open (the
 * sender claims an entry and lets it go at each try, offline too), and each write reads the page again:
 * an unchanged page is the same object (React skips it), an unchanged entry too (its row is not drawn again).
 */
function keepUnchanged(previous: HistoryPage | undefined, next: HistoryPage): HistoryPage {
  if (!previous) return next;
  const before = new Map(previous.items.map((item) => [item.id, item]));
  let same =
    previous.items.length === next.items.length &&
    previous.total === next.total &&
    previous.refreshedAt === next.refreshedAt;
  const items = next.items.map((item, index) => {
    const old = before.get(item.id);
    const kept = old !== undefined && serialised(old) === serialised(item) ? old : item;
    if (kept !== previous.items[index]) same = false;
    return kept;
  });
  return same ? previous : { ...next, items };
}

/** An item's values as text, computed once per item object: items are plain data, read from IndexedDB. */
const serialisedItems = new WeakMap<HistoryItem, string>();
function serialised(item: HistoryItem): string {
  let text = serialisedItems.get(item);
  if (text === undefined) {
    text = JSON.stringify(item);
    serialisedItems.set(item, text);
  }
  return text;
}

/** The history's page: 50 entries, then 50 more on request. */
export const HISTORY_PAGE_SIZE = 50;

/** How long a page read when the mechanic reached for the tab may stand in for the live read. */
const WARM_FOR_MS = 3_000;

/** The first page, being read since the mechanic last reached for the History tab; taken by the tab's first render. */
let warm: { partnerId: string; readAt: number; read: Promise<HistoryPage | undefined> } | null = null;
/** When the tab was last drawn. */
let drawnAt = Number.NEGATIVE_INFINITY;

/**
 * Reads the first page as the mechanic reaches for the History tab (a finger down on it, a tap), while
 * its code loads: the tab shows it as soon as it is read, and the live read that follows finds it unchanged.
 */
export function warmHistory(): void {
  const partnerId = currentPartnerId();
  warm = null;
  // Drawn already (its code was here, the tap came first): its live read is under way.
  if (!partnerId || Date.now() - drawnAt <= WARM_FOR_MS) return;
  const read = readHistory(partnerId, HISTORY_PAGE_SIZE).catch(() => undefined);
  warm = { partnerId, readAt: Date.now(), read };
}

/** The read started at the last reach, once: if it is this partner's first page and fresh. */
function takeWarmRead(partnerId: string | null, limit: number): Promise<HistoryPage | undefined> | undefined {
  const taken = warm;
  warm = null;
  drawnAt = Date.now();
  if (!taken || taken.partnerId !== partnerId || limit !== HISTORY_PAGE_SIZE) return undefined;
  return Date.now() - taken.readAt <= WARM_FOR_MS ? taken.read : undefined;
}

/**
 * The page read as the mechanic reached for the tab, until the live read answers: whichever comes first
 * is shown, and the other, equal, is the same object (keepUnchanged).
 */
function useWarmPage(partnerId: string | null, limit: number, shown: { current: HistoryPage | undefined }) {
  const [read] = useState(() => takeWarmRead(partnerId, limit));
  const [page, setPage] = useState<HistoryPage>();
  useEffect(() => {
    let current = true;
    void read?.then((warmPage) => {
      // The live read answered first: it is the newer.
      if (!current || !warmPage || shown.current) return;
      shown.current = warmPage;
      setPage(warmPage);
    });
    return () => {
      current = false;
    };
  }, [read, shown]);
  return limit === HISTORY_PAGE_SIZE ? page : undefined;
}

/** The newest `limit` items, live; refreshed from the server when first shown. Undefined while loading. */
export function useHistory(limit: number): HistoryPage | undefined {
  const partnerId = usePartnerId();
  const shown = useRef<HistoryPage | undefined>(undefined);
  const warmPage = useWarmPage(partnerId, limit, shown);
  useEffect(() => {
    if (partnerId) void refreshHistory();
  }, [partnerId]);
  const live = useLocalQuery(
    async () => {
      if (!partnerId) return EMPTY_PAGE;
      shown.current = keepUnchanged(shown.current, await readHistory(partnerId, limit));
      return shown.current;
    },
    [partnerId, limit],
    undefined,
  );
  return live ?? warmPage;
}

const EMPTY_PAGE: HistoryPage = { items: [], total: 0, refreshedAt: null };
