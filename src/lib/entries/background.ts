/**
 * Background Sync where the browser has it (Chromium), the page's side
 * (docs/ARCHITECTURE.md#the-offline-model-in-practice): whenever entries wait on the tablet, the page
 * asks the browser for a one-off sync; the browser wakes the service worker once it is online, even
 * with every tab of the portal closed, and the worker sends the outbox (background-worker.ts). Where
 * the API is missing (Safari, Firefox) nothing is asked: entries leave while the portal is open.
 * Kept tiny: it is part of the first load, and the worker imports its tag.
 */
import type { PortalDatabase } from '../db';

/** One tag: the browser keeps one registration per tag, however often the page asks. */
export const OUTBOX_SYNC_TAG = 'outbox';

/** The mechanic's language, for the worker's Accept-Language: the server words refusals in it. */
export const SYNC_LANGUAGE_KEY = 'background-sync-language';

/** Background Synchronization's SyncManager (not in TypeScript's DOM library). */
interface SyncManager {
  register(tag: string): Promise<void>;
}

type RegistrationWithSync = ServiceWorkerRegistration & { sync?: SyncManager };

export function backgroundSyncAvailable(): boolean {
  return typeof ServiceWorkerRegistration !== 'undefined' && 'sync' in ServiceWorkerRegistration.prototype;
}

let languageKept: string | null = null;

/** Asks for a background sync of the outbox; does nothing where the browser has none. */
export async function requestBackgroundSync(db: PortalDatabase, language: string): Promise<void> {
  if (!backgroundSyncAvailable() || !navigator.serviceWorker) return;
  if (languageKept !== language) {
    await db.meta.put({ key: SYNC_LANGUAGE_KEY, value: language });
    languageKept = language;
  }
  const registration: RegistrationWithSync | undefined = await navigator.serviceWorker.getRegistration();
  await registration?.sync?.register(OUTBOX_SYNC_TAG);
}
