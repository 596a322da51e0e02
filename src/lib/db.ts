/**
 * The tablet's own database (docs/ARCHITECTURE.md#the-offline-model-in-practice). Per partner: the signed-in user, vehicle
 * lookups and timelines, the synced history and the outbox; repair types and public documents are shared.
 * Only src/lib touches it; the UI goes through the hooks and functions src/lib exports.
 */
import Dexie, { type EntityTable } from 'dexie';
import type { RepairRecord, RepairType, User, Vehicle, VehicleReading } from '../../contract';
import { DATABASE_NAME } from './session-keys';
import { countSignOut, upgradeOutboxToVersion2, upgradeOutboxToVersion7 } from './entries/outbox-meta';
import type { OutboxEntry, PhotoRow } from './entries/outbox-rows';

export type { OutboxEntry, OutboxError, OutboxState, PhotoRow } from './entries/outbox-rows';

export interface CachedAccount {
  /** user.id */
  id: string;
  user: User;
  signedInAt: string;
  /**
   * The partner's hand-over key from the last sign-in answer: it seals and checks hand-over files
   * offline (docs/ARCHITECTURE.md#the-hand-over-file). Absent until a sign-in since it existed.
   */
  handoverKey?: string;
}

export interface MetaRow {
  key: string;
  value: unknown;
}

export interface CachedRepairType extends RepairType {
  position: number;
}

export interface CachedVehicle extends Vehicle {
  partnerId: string;
  fetchedAt: string;
}

/** A vehicle's timeline as GET /vehicles/{kode_id}/readings last gave it to this partner. */
export interface CachedReadings {
  partnerId: string;
  kode_id: string;
  /** Newest first, as the server sends them. */
  readings: VehicleReading[];
  fetchedAt: string;
}

export interface HistoryRow extends RepairRecord {
  partnerId: string;
}

/** The current schema version; every earlier one stays declared below so Dexie can upgrade from it. */
export const DB_VERSION = 7;

export class PortalDatabase extends Dexie {
  accounts!: EntityTable<CachedAccount, 'id'>;
  meta!: EntityTable<MetaRow, 'key'>;
  repairTypes!: EntityTable<CachedRepairType, 'id'>;
  vehicles!: Dexie.Table<CachedVehicle, [string, string]>;
  readings!: Dexie.Table<CachedReadings, [string, string]>;
  history!: EntityTable<HistoryRow, 'id'>;
  outbox!: EntityTable<OutboxEntry, 'key'>;
  photos!: EntityTable<PhotoRow, 'id'>;

  constructor(name = DATABASE_NAME) {
    super(name);
    this.version(1).stores({
      accounts: 'id',
      meta: 'key',
      repairTypes: 'id, position',
      vehicles: '[partnerId+kode_id], partnerId',
      history: 'id, partnerId, [partnerId+recorded_at]',
      outbox: 'key, partnerId, state, [partnerId+seq], [partnerId+state]',
    });
    // Version 2: per-vehicle indexes for the odometer check and the sender's per-vehicle order, and
    // a global seq index for the Insert counter. Entries queued under version 1 are kept; the upgrade
    // (with the outbox's other writes, in sync/outbox.ts) fills fields an older build may not have
    // written and carries the seq counter over.
    this.version(2)
      .stores({
        history: 'id, partnerId, [partnerId+recorded_at], [partnerId+vehicle.kode_id]',
        outbox: 'key, partnerId, state, seq, [partnerId+seq], [partnerId+state], [partnerId+entry.kode_id]',
      })
      .upgrade(upgradeOutboxToVersion2);
    // Version 3: the history is found by Idempotency-Key, so a queued entry the server already holds
    // (its answer was lost) is recognised when the history is refreshed. Rows synced before have no key.
    this.version(3).stores({
      history: 'id, partnerId, [partnerId+recorded_at], [partnerId+vehicle.kode_id], idempotency_key',
    });
    // Version 4: each looked-up vehicle's timeline (every garage's readings), kept for offline use.
    this.version(4).stores({ readings: '[partnerId+kode_id], partnerId' });
    // Version 5: odometer photos, each beside its entry until the server has it.
    this.version(5).stores({ photos: 'id, partnerId, entryKey' });
    // Version 6: the history reads one page, not the whole outbox: queued entries by their moment,
    // newest first, and the corrections apart (only rows with `entry.corrects` are in that index).
    this.version(6).stores({
      outbox:
        'key, partnerId, state, seq, [partnerId+seq], [partnerId+state], [partnerId+entry.kode_id], ' +
        '[partnerId+entry.recorded_at], [partnerId+entry.corrects]',
    });
    // Version 7: an entry's state is stored in the words of its life (sync/entry-state.ts): queued,
    // refused and in conflict replace the four words kept before. Entries queued before are kept, and
    // go once, under their keys.
    this.version(7).upgrade(upgradeOutboxToVersion7);
  }
}

export const db = new PortalDatabase();

/** What the meta table keeps per partner, each under `<kind>:<partner id>`. */
const PARTNER_META_KINDS = ['statistics', 'history-refreshed-at', 'history-cursor'] as const;
export type PartnerMetaKind = (typeof PARTNER_META_KINDS)[number];

export function partnerMetaKey(kind: PartnerMetaKind, partnerId: string): string {
  return `${kind}:${partnerId}`;
}

/**
 * Signing out leaves nothing of the partner on the tablet (a shared tablet's next user must not read
 * their email, phone, location, history or VINs), except their entries still in the outbox: those
 * leave at the partner's next sign-in, as ever. One transaction: never half forgotten.
 */
export async function forgetPartnerData(partnerId: string): Promise<void> {
  await db.transaction('rw', [db.accounts, db.history, db.vehicles, db.readings, db.meta], async () => {
    await db.accounts.delete(partnerId);
    await db.history.where('partnerId').equals(partnerId).delete();
    await db.vehicles.where('partnerId').equals(partnerId).delete();
    await db.readings.where('partnerId').equals(partnerId).delete();
    await db.meta.bulkDelete(PARTNER_META_KINDS.map((kind) => partnerMetaKey(kind, partnerId)));
    // A send in flight for this partner may still be answered: its answer must not bring the history back.
    await countSignOut(db.meta);
  });
}

/** Small typed wrappers over the meta table. */
export async function readMeta<T>(key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined;
}

export async function writeMeta(key: string, value: unknown): Promise<void> {
  await db.meta.put({ key, value });
}
