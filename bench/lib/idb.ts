/**
 * Filling the app's IndexedDB from a benchmark: rows of exactly the shape src/lib/db.ts declares
 * (OutboxEntry, HistoryRow), written with the plain IndexedDB API in the page, into the database the
 * app has already opened (so its schema and version are the app's own). Nothing in the product is
 * exposed for this.
 */
import type { Page } from 'playwright-core';
import type { HistoryRow, OutboxEntry } from '../../src/lib/db';

export const APP_DATABASE = 'garage-portal';
export const OUTBOX_SEQ_KEY = 'outbox-seq';

/** Writes rows into stores of the app's database in one transaction; for outbox rows, moves the seq counter on. */
export async function putRows(
  page: Page,
  rows: { outbox?: readonly OutboxEntry[]; history?: readonly HistoryRow[] },
): Promise<void> {
  await page.evaluate(
    async ({ name, seqKey, outbox, history }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      try {
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction(['outbox', 'history', 'meta'], 'readwrite');
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
          tx.onabort = () => reject(tx.error);
          // Before version 7 (IndexedDB version 70: Dexie's times ten) the app stored a queued entry as
          // 'pending': a baseline commit measured beside this one may be older.
          const before7 = db.version < 70;
          for (const row of outbox) {
            tx.objectStore('outbox').put({ ...row, state: before7 && row.state === 'queued' ? 'pending' : row.state });
          }
          for (const row of history) tx.objectStore('history').put(row);
          if (outbox.length > 0) {
            const meta = tx.objectStore('meta');
            const read = meta.get(seqKey);
            read.onsuccess = () => {
              const current = (read.result as { value?: unknown } | undefined)?.value;
              const highest = Math.max(typeof current === 'number' ? current : 0, ...outbox.map((row) => row.seq));
              meta.put({ key: seqKey, value: highest });
            };
          }
        });
      } finally {
        db.close();
      }
    },
    { name: APP_DATABASE, seqKey: OUTBOX_SEQ_KEY, outbox: rows.outbox ?? [], history: rows.history ?? [] },
  );
}

/** One read in a store of the app's database: a count of its rows, or the row under a key. */
type StoreRead = { store: 'outbox' | 'history'; count: true } | { store: 'meta'; key: string };

function readStore(page: Page, read: StoreRead): Promise<unknown> {
  return page.evaluate(
    async ({ name, read }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      try {
        return await new Promise<unknown>((resolve, reject) => {
          const store = db.transaction(read.store, 'readonly').objectStore(read.store);
          const request: IDBRequest = 'key' in read ? store.get(read.key) : store.count();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      } finally {
        db.close();
      }
    },
    { name: APP_DATABASE, read },
  );
}

export async function countRows(page: Page, store: 'outbox' | 'history'): Promise<number> {
  return (await readStore(page, { store, count: true })) as number;
}

/** The highest seq the outbox counter has handed out (new entries continue after it). */
export async function currentSeq(page: Page): Promise<number> {
  const row = (await readStore(page, { store: 'meta', key: OUTBOX_SEQ_KEY })) as { value?: unknown } | undefined;
  return typeof row?.value === 'number' ? row.value : 0;
}

export interface QueuedRepair {
  kode_id: string;
  repair_type_id: string;
  odometer: number;
  recorded_at: string;
}

/** Outbox rows as Insert writes them (src/lib/entries/outbox.ts addToOutbox), queued, in the given order. */
export function outboxRows(partnerId: string, repairs: readonly QueuedRepair[], firstSeq: number): OutboxEntry[] {
  return repairs.map((repair, index) => ({
    key: crypto.randomUUID(),
    partnerId,
    entry: { ...repair, note: '', consented: true },
    state: 'queued',
    seq: firstSeq + index,
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: repair.recorded_at,
  }));
}
