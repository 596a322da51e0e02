/**
 * The app's one sync engine and the functions the UI calls (docs/ARCHITECTURE.md#the-offline-model-in-practice). The engine runs
 * on start, when the browser goes online, when a partner signs in, when the tab becomes visible
 * again and after each Insert.
 */
import { postRepair } from '../api/partner/post-repair';
import { db } from '../db';
import { currentPartnerId } from '../partner';
import { randomUuid } from '../uuid';
import { getSession, onSignIn, subscribeSession } from '../session';
import { SyncEngine, type SubmitOutcome } from './engine';
import { createSenderLock } from './lock';
import type { RepairInput } from './outbox';

export type { SubmitOutcome } from './engine';
export type { RepairInput } from './outbox';

let engine: SyncEngine | null = null;
let stopSync: (() => void) | null = null;

export function getSyncEngine(): SyncEngine {
  engine ??= new SyncEngine({
    db,
    transport: (row) => postRepair(row.key, row.entry),
    session: { partnerId: currentPartnerId, offline: () => getSession().offline },
    lock: createSenderLock(db, randomUuid()),
    onError: (error) => console.error('outbox sender', error),
  });
  return engine;
}

/** Starts sending (once; later calls return the same stop function). */
export function startSync(): () => void {
  if (stopSync) return stopSync;
  const sender = getSyncEngine();
  const online = () => void sender.kick('online');
  const visible = () => {
    if (document.visibilityState === 'visible') void sender.kick('visible');
  };
  window.addEventListener('online', online);
  document.addEventListener('visibilitychange', visible);
  const offSignIn = onSignIn((user) => void sender.resume(user.id));
  // A session restored from the cache (server unreachable at start) fires no sign-in: still try, since
  // the first send's 401 is what revives the session once the server answers again.
  let partner = currentPartnerId();
  const offSession = subscribeSession(() => {
    const next = currentPartnerId();
    if (next && next !== partner) void sender.kick('start');
    partner = next;
  });
  void sender.kick('start');
  stopSync = () => {
    window.removeEventListener('online', online);
    document.removeEventListener('visibilitychange', visible);
    offSignIn();
    offSession();
    sender.stop();
    engine = null;
    stopSync = null;
  };
  return stopSync;
}

function requirePartner(): string {
  const partnerId = currentPartnerId();
  if (!partnerId) throw new Error('No partner is signed in');
  return partnerId;
}

/**
 * Insert: the entry is written to the outbox, then sent. Resolves once the first attempt has an
 * answer (or after a few seconds): stored on the server, rejected by it, or queued on the tablet.
 */
export function submitRepair(input: RepairInput): Promise<SubmitOutcome> {
  return getSyncEngine().submit(requirePartner(), input);
}

/** Sends a corrected rejected entry again (new Idempotency-Key, original recorded_at); null if it is gone. */
export function resubmitRepair(key: string, input: RepairInput): Promise<SubmitOutcome | null> {
  return getSyncEngine().resubmit(requirePartner(), key, input);
}

/** How many of the signed-in partner's entries are still to be sent (rejected ones excluded). */
export async function unsentCount(): Promise<number> {
  const partnerId = currentPartnerId();
  if (!partnerId) return 0;
  return db.outbox
    .where('partnerId')
    .equals(partnerId)
    .filter((row) => row.state !== 'rejected')
    .count();
}

/** Drops a rejected entry; false when it is not (or no longer) a rejected entry of this partner. */
export function discardRepair(key: string): Promise<boolean> {
  return getSyncEngine().discard(requirePartner(), key);
}
