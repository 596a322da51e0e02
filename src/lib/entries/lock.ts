/**
 * One sender at a time across the tabs of this browser (docs/ARCHITECTURE.md#the-offline-model-in-practice). Web Locks when the
 * browser has them; otherwise a lease in the meta table that expires, so a tab that died while
 * holding it does not block the others for long.
 */
import type { PortalDatabase } from '../db';
import { SYNC_POLICY } from './policy';

export interface SenderLock {
  /**
   * Runs `task` while holding the lock and resolves true, or resolves false without running it
   * when another sender holds the lock. `keepAlive` renews a lease before each batch and answers
   * false when the lock was lost (the task should then stop).
   */
  run(task: (keepAlive: () => Promise<boolean>) => Promise<void>): Promise<boolean>;
}

const SENDER_LOCK_NAME = 'outbox-sender';
const SENDER_LEASE_KEY = 'outbox-sender-lease';

const alive = async () => true;

/** Web Locks: waits for the lock (a pass is short), so a kick from this tab is never lost. */
export function webLock(locks: LockManager): SenderLock {
  return {
    async run(task) {
      await locks.request(SENDER_LOCK_NAME, () => task(alive));
      return true;
    },
  };
}

interface Lease {
  owner: string;
  expiresAt: number;
}

function isLease(value: unknown): value is Lease {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Lease).owner === 'string' &&
    typeof (value as Lease).expiresAt === 'number'
  );
}

export interface LeaseOptions {
  owner: string;
  now: () => number;
}

/** The fallback: a lease record { owner, expiresAt } taken and renewed in IndexedDB transactions. */
export function leaseLock(db: PortalDatabase, options: LeaseOptions): SenderLock {
  const claim = () =>
    db.transaction('rw', db.meta, async () => {
      const current = (await db.meta.get(SENDER_LEASE_KEY))?.value;
      const now = options.now();
      if (isLease(current) && current.owner !== options.owner && current.expiresAt > now) return false;
      await db.meta.put({
        key: SENDER_LEASE_KEY,
        value: { owner: options.owner, expiresAt: now + SYNC_POLICY.leaseTtlMs } satisfies Lease,
      });
      return true;
    });

  const release = () =>
    db.transaction('rw', db.meta, async () => {
      const current = (await db.meta.get(SENDER_LEASE_KEY))?.value;
      if (isLease(current) && current.owner === options.owner) await db.meta.delete(SENDER_LEASE_KEY);
    });

  return {
    async run(task) {
      if (!(await claim())) return false;
      try {
        await task(claim);
      } finally {
        await release().catch(() => undefined);
      }
      return true;
    },
  };
}

/** Web Locks where available, the lease otherwise. */
export function createSenderLock(db: PortalDatabase, owner: string): SenderLock {
  if (typeof navigator !== 'undefined' && navigator.locks) return webLock(navigator.locks);
  return leaseLock(db, { owner, now: Date.now });
}
