/**
 * The tablet's own database (DESIGN.md section 3). Per partner: the signed-in user, vehicle
 * lookups, the synced history and the outbox; repair types and public documents are shared.
 * Only src/lib touches it; the UI goes through the hooks and functions src/lib exports.
 */
import Dexie, { type EntityTable } from 'dexie';
import type { RepairEntry, RepairRecord, RepairType, User, Vehicle } from '../../contract';

export interface CachedAccount {
  /** user.id */
  id: string;
  user: User;
  signedInAt: string;
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

export interface HistoryRow extends RepairRecord {
  partnerId: string;
}

export type OutboxState = 'pending' | 'sending' | 'rejected' | 'waiting_for_sign_in';

export interface OutboxEntry {
  /** The Idempotency-Key, made when the mechanic pressed Insert. */
  key: string;
  partnerId: string;
  /** The body sent to POST /repairs, recorded_at included. */
  entry: RepairEntry & { recorded_at: string };
  state: OutboxState;
  /** Local sequence: the mechanic's own order, kept per vehicle when sending. */
  seq: number;
  attempts: number;
  nextAttemptAt: number;
  lastError: { code: number; message: string; fields?: Record<string, string> } | null;
  createdAt: string;
}

export class PortalDatabase extends Dexie {
  accounts!: EntityTable<CachedAccount, 'id'>;
  meta!: EntityTable<MetaRow, 'key'>;
  repairTypes!: EntityTable<CachedRepairType, 'id'>;
  vehicles!: Dexie.Table<CachedVehicle, [string, string]>;
  history!: EntityTable<HistoryRow, 'id'>;
  outbox!: EntityTable<OutboxEntry, 'key'>;

  constructor(name = 'garage-portal') {
    super(name);
    this.version(1).stores({
      accounts: 'id',
      meta: 'key',
      repairTypes: 'id, position',
      vehicles: '[partnerId+kode_id], partnerId',
      history: 'id, partnerId, [partnerId+recorded_at]',
      outbox: 'key, partnerId, state, [partnerId+seq], [partnerId+state]',
    });
  }
}

export const db = new PortalDatabase();

/** Small typed wrappers over the meta table. */
export async function readMeta<T>(key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined;
}

export async function writeMeta(key: string, value: unknown): Promise<void> {
  await db.meta.put({ key, value });
}
