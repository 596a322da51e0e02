/**
 * One sender at a time across the tabs of this browser (docs/ARCHITECTURE.md#the-offline-model-in-practice). Web Locks when the
 * browser has them; otherwise a lease in the meta table that expires, so a tab that died while
 * holding it does not block the others for long.
 */
import type { PortalDatabase } from '../db';

export interface SenderLock {
  /**
   * Runs `task` while holding the lock and resolves true, or resolves false without running it
   * when another sender holds the lock. `keepAlive` renews a lease before each batch and answers
   * false when the lock was lost (the task should then stop).
   */
  run(task: (keepAlive: () => Promise<boolean>) => Promise<void>): Promise<boolean>;
}

export const SENDER_LOCK_NAME = 'outbox-sender';
export const SENDER_LEASE_KEY = 'outbox-sender-lease';
/** Longer than a request's timeout, so a live holder renews it well before it lapses. */
export const SENDER_LEASE_TTL_MS = 60_000;

const alive = async () => true;

/** Web Locks: waits for the lock (a pass is short), so a kick from this tab is never lost. */
export function webLock(locks: LockManager, name = SENDER_LOCK_NAME): SenderLock {
  return {
    async run(task) {
      await locks.request(name, () => task(alive));
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
  ttlMs?: number;
  key?: string;
}

/** The fallback: a lease record { owner, expiresAt } taken and renewed in IndexedDB transactions. */
export function leaseLock(db: PortalDatabase, options: LeaseOptions): SenderLock {
  const ttl = options.ttlMs ?? SENDER_LEASE_TTL_MS;
  const key = options.key ?? SENDER_LEASE_KEY;

  const claim = () =>
    db.transaction('rw', db.meta, async () => {
      const current = (await db.meta.get(key))?.value;
      const now = options.now();
      if (isLease(current) && current.owner !== options.owner && current.expiresAt > now) return false;
      await db.meta.put({ key, value: { owner: options.owner, expiresAt: now + ttl } satisfies Lease });
      return true;
    });

  const release = () =>
    db.transaction('rw', db.meta, async () => {
      const current = (await db.meta.get(key))?.value;
      if (isLease(current) && current.owner === options.owner) await db.meta.delete(key);
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
export function createSenderLock(db: PortalDatabase, owner: string, now: () => number = Date.now): SenderLock {
  if (typeof navigator !== 'undefined' && navigator.locks) return webLock(navigator.locks);
  return leaseLock(db, { owner, now });
}
