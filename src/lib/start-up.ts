/**
 * The page's start-up (docs/ARCHITECTURE.md#start-up): work the first screen does not need (filling
 * the tablet after a sign-in, the outbox's sender, IndexedDB's code) waits until that screen is on
 * show and can be typed in, and then for a moment the browser has to spare, instead of competing
 * with it.
 */
let shown = false;
const waiting: (() => void)[] = [];

function controlledByServiceWorker(): boolean {
  return typeof navigator !== 'undefined' && Boolean(navigator.serviceWorker?.controller);
}

/**
 * Runs `task` at a moment the browser has to spare (within two seconds at most). On a page no service
 * worker controls yet (a first visit), in the next task instead: what it loads cannot come from the
 * worker's precache, and a connection lost meanwhile would leave the page without it.
 */
export function whenSpare(task: () => void): void {
  if (controlledByServiceWorker() && 'requestIdleCallback' in window) requestIdleCallback(task, { timeout: 2000 });
  else setTimeout(task, 0);
}

/** After a failed load, the next moment it may succeed. */
const RETRY_LOAD_MS = 5_000;

/**
 * Code the page needs once its first screen is live, loaded even if the first try fails (the network
 * dropped before the service worker had it): tried again when the tablet is back online, when a
 * service worker (whose precache holds it) takes the page over, or a few seconds on.
 */
export async function loadPersistently<T>(load: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await load();
    } catch {
      await nextChanceToLoad();
    }
  }
}

function nextChanceToLoad(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      navigator.serviceWorker?.removeEventListener('controllerchange', done);
      resolve();
    };
    const timer = setTimeout(done, RETRY_LOAD_MS);
    window.addEventListener('online', done);
    navigator.serviceWorker?.addEventListener('controllerchange', done);
  });
}

/** Performance mark set when the first screen is on show (start-up figures and tests read it). */
export const SCREEN_SHOWN_MARK = 'screen-shown';

/** The router says so once the first screen has been rendered (or hydrated) with its content. */
export function screenShown(): void {
  if (shown) return;
  shown = true;
  performance.mark(SCREEN_SHOWN_MARK);
  waiting.splice(0).forEach(whenSpare);
}

/** Runs `task` once the first screen is on show, at a moment to spare (whenSpare); soon if that is past. */
export function afterFirstScreen(task: () => void): void {
  if (shown) whenSpare(task);
  else waiting.push(task);
}
