/**
 * The history (docs/ARCHITECTURE.md#the-offline-model-in-practice): the partner's synced repairs (refreshed from GET /repairs and
 * merged by id) and their entries still in the outbox, in one list, newest first by recorded_at.
 * An entry is either queued or synced, never both: a refresh that brings a repair the outbox still
 * holds (its answer was lost) takes it out of the outbox in the same transaction, and the list drops a
 * queued entry whose Idempotency-Key a synced repair carries. The newest page is fetched at sign-in
 * too (the dashboard's device fill), so the history shows offline from the first minute.
 */
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import { REPAIRS_PAGE_DEFAULT, type RepairEntry, type RepairType } from '../../contract';
import { listRepairs } from './api/partner/list-repairs';
import { db, partnerMetaKey, readMeta, writeMeta, type OutboxError, type OutboxState } from './db';
import { currentPartnerId, usePartnerId } from './partner';
import { mergeServerRecords } from './sync/outbox';

export type HistoryStatus = 'synced' | OutboxState;

export interface HistoryItem {
  /** The server's id for a synced repair; the Idempotency-Key for a queued one. */
  id: string;
  status: HistoryStatus;
  kodeId: string;
  odometer: number;
  repairType: RepairType | null;
  recordedAt: string;
  odometerAnomaly: boolean;
  /** Queued entries only: why the last attempt failed. */
  lastError: OutboxError | null;
  /** Queued entries only: what was entered, for a correction. */
  entry: (RepairEntry & { recorded_at: string }) | null;
}

export interface HistoryPage {
  items: HistoryItem[];
  /** Everything this tablet holds for the partner (synced and queued). */
  total: number;
  /** When the newest repairs were last fetched from the server (ISO 8601), null if never. */
  refreshedAt: string | null;
}

async function mergeRecords(partnerId: string, before?: string): Promise<number | null> {
  const result = await listRepairs(before ? { before, limit: REPAIRS_PAGE_DEFAULT } : {});
  if (result.status !== 'success') return null;
  await mergeServerRecords(db, partnerId, result.data);
  if (!before) await writeMeta(partnerMetaKey('history-refreshed-at', partnerId), new Date().toISOString());
  return result.data.length;
}

let inFlight: Promise<boolean> | null = null;

/** Merges the server's newest repairs into the local history; false when the server was not reached. */
export function refreshHistory(): Promise<boolean> {
  const partnerId = currentPartnerId();
  if (!partnerId) return Promise.resolve(false);
  inFlight ??= mergeRecords(partnerId)
    .then((count) => count !== null)
    .catch(() => false)
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

/**
 * Fetches the page of repairs older than the oldest one held. Resolves to how many arrived (0 when the
 * server has no older ones) or null when it could not be asked.
 */
export async function loadOlderHistory(): Promise<number | null> {
  const partnerId = currentPartnerId();
  if (!partnerId) return null;
  const oldest = await db.history
    .where('[partnerId+recorded_at]')
    .between([partnerId, Dexie.minKey], [partnerId, Dexie.maxKey])
    .first();
  return mergeRecords(partnerId, oldest?.recorded_at).catch(() => null);
}

/** The partner's queued entries, less any the server is already known to hold (synced under the same key). */
async function readQueued(partnerId: string) {
  const queued = await db.outbox.where('partnerId').equals(partnerId).toArray();
  if (queued.length === 0) return queued;
  const syncedKeys = new Set(
    (
      await db.history
        .where('idempotency_key')
        .anyOf(queued.map((row) => row.key))
        .toArray()
    ).map((row) => row.idempotency_key),
  );
  return queued.filter((row) => !syncedKeys.has(row.key));
}

/** One read transaction: the synced and queued parts come from the same moment, never half a merge. */
function readHistory(partnerId: string, limit: number): Promise<HistoryPage> {
  return db.transaction('r', db.history, db.outbox, db.repairTypes, db.meta, () => readHistoryRows(partnerId, limit));
}

async function readHistoryRows(partnerId: string, limit: number): Promise<HistoryPage> {
  const range = db.history
    .where('[partnerId+recorded_at]')
    .between([partnerId, Dexie.minKey], [partnerId, Dexie.maxKey]);
  const [synced, syncedCount, queued, types, refreshedAt] = await Promise.all([
    range.clone().reverse().limit(limit).toArray(),
    range.clone().count(),
    readQueued(partnerId),
    db.repairTypes.toArray(),
    readMeta<string>(partnerMetaKey('history-refreshed-at', partnerId)),
  ]);
  const typeById = new Map(types.map(({ position: _position, ...type }) => [type.id, type]));
  const items: HistoryItem[] = [
    ...synced.map((row): HistoryItem => ({
      id: row.id,
      status: 'synced',
      kodeId: row.vehicle.kode_id,
      odometer: row.odometer,
      repairType: row.repair_type,
      recordedAt: row.recorded_at,
      odometerAnomaly: row.odometer_anomaly,
      lastError: null,
      entry: null,
    })),
    ...queued.map((row): HistoryItem => ({
      id: row.key,
      status: row.state,
      kodeId: row.entry.kode_id,
      odometer: row.entry.odometer,
      repairType: typeById.get(row.entry.repair_type_id) ?? null,
      recordedAt: row.entry.recorded_at,
      odometerAnomaly: false,
      lastError: row.lastError,
      entry: row.entry,
    })),
  ];
  items.sort((a, b) => Date.parse(b.recordedAt) - Date.parse(a.recordedAt));
  return { items: items.slice(0, limit), total: syncedCount + queued.length, refreshedAt: refreshedAt ?? null };
}

/** The newest `limit` items, live; refreshed from the server when first shown. Undefined while loading. */
export function useHistory(limit: number): HistoryPage | undefined {
  const partnerId = usePartnerId();
  useEffect(() => {
    if (partnerId) void refreshHistory();
  }, [partnerId]);
  return useLiveQuery(
    () => (partnerId ? readHistory(partnerId, limit) : Promise.resolve({ items: [], total: 0, refreshedAt: null })),
    [partnerId, limit],
  );
}
