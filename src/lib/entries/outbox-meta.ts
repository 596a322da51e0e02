/**
 * The outbox's counters in the meta table, and the outbox's schema upgrades: what src/lib/db.ts needs
 * of the sync module (the sign-out's count, the upgrade of version 2), apart from outbox.ts, which
 * works on the database db.ts declares.
 */
import type { EntityTable, Transaction } from 'dexie';
import { parkedState } from './entry-state';
import type { OutboxEntry, OutboxState } from './outbox-rows';

/** The meta table's rows: a value under a key. */
type MetaTable = EntityTable<{ key: string; value: unknown }, 'key'>;

/** Where the outbox's sequence counter lives in the meta table (the next Insert takes the value + 1). */
export const OUTBOX_SEQ_KEY = 'outbox-seq';

/**
 * Sign-ins on this tablet so far, any partner, any tab: a 401 answered to a request made before the
 * latest sign-in speaks of a session that is gone, and parks nothing.
 */
export const SIGN_INS_KEY = 'outbox-sign-ins';
/** Sign-outs on this tablet, counted the same way: an answer that arrives after one writes no history. */
export const SIGN_OUTS_KEY = 'outbox-sign-outs';

export async function countSoFar(meta: MetaTable, key: string): Promise<number> {
  const value = (await meta.get(key))?.value;
  return typeof value === 'number' ? value : 0;
}

/** Inside the sign-out's own transaction (it must include the meta table). */
export async function countSignOut(meta: MetaTable): Promise<void> {
  await meta.put({ key: SIGN_OUTS_KEY, value: (await countSoFar(meta, SIGN_OUTS_KEY)) + 1 });
}

/** The four words the outbox stored an entry's state in before version 7. */
type StateBefore7 = 'pending' | 'sending' | 'rejected' | 'waiting_for_sign_in';
type RowBefore7 = Omit<OutboxEntry, 'state'> & { state: StateBefore7 };

/**
 * Version 2: entries queued under version 1 are kept; fields an older build may not have written are
 * filled, and the seq counter carries on after the highest seq.
 */
export async function upgradeOutboxToVersion2(tx: Transaction): Promise<void> {
  let maxSeq = 0;
  await tx
    .table<RowBefore7, string>('outbox')
    .toCollection()
    .modify((row) => {
      // A tab that died mid-send left 'sending': the server may or may not have it; the same key resends.
      if (row.state === 'sending' || !row.state) row.state = 'pending';
      row.attempts ??= 0;
      row.nextAttemptAt ??= 0;
      row.lastError ??= null;
      if (typeof row.seq !== 'number') row.seq = Date.parse(row.createdAt) || 0;
      maxSeq = Math.max(maxSeq, row.seq);
    });
  const meta: MetaTable = tx.table('meta');
  const current = await countSoFar(meta, OUTBOX_SEQ_KEY);
  await meta.put({ key: OUTBOX_SEQ_KEY, value: Math.max(maxSeq, current) });
}

/** An entry's state in the words of its life, from the word version 6 stored. */
export function stateSince7(row: Pick<RowBefore7, 'state' | 'lastError'>): OutboxState {
  switch (row.state) {
    case 'pending':
      return 'queued';
    case 'rejected':
      return parkedState(row.lastError);
    default:
      return row.state;
  }
}

/**
 * Version 7: each entry's state in the words of its life (entry-state.ts). Queued and waiting entries
 * keep their keys, their order and their backoff, so each goes once; one left sending by a tab that
 * died mid-send stays so, and the next sender puts it back in the queue (recoverInterrupted).
 */
export async function upgradeOutboxToVersion7(tx: Transaction): Promise<void> {
  await tx
    .table<RowBefore7 | OutboxEntry, string>('outbox')
    .toCollection()
    .modify((row) => {
      row.state = stateSince7(row as RowBefore7);
    });
}
