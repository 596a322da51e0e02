/**
 * The tablet's storage health for the header and the sending panel (docs/ARCHITECTURE.md#storage-health).
 * Read when first shown, again when the tab comes back and whenever the outbox changes size; persistent
 * storage is asked for once per start while the browser has not granted it.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { askForPersistence, readStorageHealth, type StorageHealth } from '../../../lib/storage-health';
import { createStore } from '../../../lib/store';

const health = createStore<StorageHealth | null>(null);
let askedThisStart = false;

/** Reads the storage health again; asks for persistence first if it was never asked in this start. */
export async function refreshStorageHealth(): Promise<StorageHealth> {
  let next = await readStorageHealth();
  if (next.persisted === false && !askedThisStart) {
    askedThisStart = true;
    if (await askForPersistence()) next = { ...next, persisted: true };
  }
  health.set(next);
  return next;
}

/** The mechanic's own request, from the panel: always asks. */
export async function requestPersistentStorage(): Promise<boolean> {
  const granted = await askForPersistence();
  await refreshStorageHealth();
  return granted;
}

/** Null until first read. `outboxSize` re-reads the estimate when entries come and go. */
export function useStorageHealth(outboxSize: number): StorageHealth | null {
  // Not read yet, as far as a prerendered page's hydration is concerned.
  const current = useSyncExternalStore(health.subscribe, health.get, () => null);
  useEffect(() => {
    void refreshStorageHealth().catch(() => undefined);
  }, [outboxSize]);
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refreshStorageHealth().catch(() => undefined);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);
  return current;
}
