/**
 * Storage health (docs/ARCHITECTURE.md#storage-health): whether the browser may throw the tablet's
 * IndexedDB away, and how full it is. Entries wait in IndexedDB until they are sent; a browser that
 * evicts the site's data under storage pressure, or after days without a visit, takes them with it.
 *
 * - Persistent storage (`navigator.storage.persisted()`) is kept until the user clears it. Chromium
 *   grants it to installed apps and often used sites, Firefox asks the user; it is asked for again at
 *   every start while it is not granted.
 * - `navigator.storage.estimate()` says how much of the quota is used: from 80 % a warning.
 * - WebKit (Safari, and every browser on an iPad) deletes a site's script-written storage after
 *   seven days without a visit, unless the site is installed to the home screen.
 */

/** From this share of the quota, the mechanic is warned. */
export const STORAGE_WARNING_RATIO = 0.8;

export interface StorageUsage {
  used: number;
  quota: number;
  /** used / quota, from 0 to 1. */
  ratio: number;
}

export interface StorageHealth {
  /** True: kept until the user clears it. False: the browser may evict it. Null: it cannot tell. */
  persisted: boolean | null;
  /** Null where the browser gives no estimate. */
  usage: StorageUsage | null;
  /** The browser deletes the data of a site unused for days unless it is installed (WebKit). */
  evictsWhenUnused: boolean;
  /** Opened from the home screen (display-mode standalone). */
  installed: boolean;
}

/** What the module reads of the browser; tests pass their own. */
export interface StorageEnvironment {
  storage?: Partial<Pick<StorageManager, 'persisted' | 'persist' | 'estimate'>>;
  userAgent: string;
  installed: boolean;
}

export function browserEnvironment(): StorageEnvironment {
  const nav = navigator as Navigator & { standalone?: boolean };
  const standalone =
    nav.standalone === true ||
    (typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches);
  return { storage: nav.storage, userAgent: nav.userAgent, installed: standalone };
}

/**
 * WebKit outside Chromium: Safari on a Mac or an iPad (which calls itself a Mac), and every browser
 * on iOS (CriOS, FxiOS and EdgiOS are WebKit there). Chromium and Firefox name themselves.
 */
export function isEvictingWebKit(userAgent: string): boolean {
  return /AppleWebKit/.test(userAgent) && !/Chrome\/|Chromium\/|Android|Edg\//.test(userAgent);
}

async function readPersisted(storage: StorageEnvironment['storage']): Promise<boolean | null> {
  if (typeof storage?.persisted !== 'function') return null;
  return storage.persisted().catch(() => null);
}

async function readUsage(storage: StorageEnvironment['storage']): Promise<StorageUsage | null> {
  if (typeof storage?.estimate !== 'function') return null;
  const estimate = await storage.estimate().catch(() => null);
  if (!estimate?.quota || estimate.usage === undefined) return null;
  return { used: estimate.usage, quota: estimate.quota, ratio: Math.min(1, estimate.usage / estimate.quota) };
}

export async function readStorageHealth(env: StorageEnvironment = browserEnvironment()): Promise<StorageHealth> {
  const [persisted, usage] = await Promise.all([readPersisted(env.storage), readUsage(env.storage)]);
  return { persisted, usage, evictsWhenUnused: isEvictingWebKit(env.userAgent), installed: env.installed };
}

/** Asks the browser to keep the data; true when it now will. */
export async function askForPersistence(env: StorageEnvironment = browserEnvironment()): Promise<boolean> {
  if (typeof env.storage?.persist !== 'function') return false;
  return env.storage.persist().catch(() => false);
}

/** What endangers the entries kept on this tablet, most serious first; empty when nothing does. */
export type StorageRisk = 'evicted-when-unused' | 'almost-full' | 'not-persistent';

export function storageRisks(health: StorageHealth): StorageRisk[] {
  const risks: StorageRisk[] = [];
  if (health.evictsWhenUnused && !health.installed) risks.push('evicted-when-unused');
  if (health.usage && health.usage.ratio >= STORAGE_WARNING_RATIO) risks.push('almost-full');
  if (health.persisted === false) risks.push('not-persistent');
  return risks;
}
