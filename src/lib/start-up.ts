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
 * How long the work after the first screen stays back after the mechanic's last tap or key: what that
 * input started (a tab's code and data, a lookup) goes first, instead of sharing the thread with the
 * sender's start or the tablet's fill. At most POSTPONED_AT_MOST_MS in all, so steady typing does not
 * keep it back.
 */
const QUIET_AFTER_INPUT_MS = 600;
const POSTPONED_AT_MOST_MS = 3_000;

let lastInputAt = Number.NEGATIVE_INFINITY;
let watchingInput = false;

function noteInput(): void {
  lastInputAt = performance.now();
}

/** Input is watched from the first spare task on: nothing runs at import. */
function watchInput(): void {
  if (watchingInput) return;
  watchingInput = true;
  const options = { capture: true, passive: true } as const;
  for (const type of ['pointerdown', 'keydown', 'click'] as const) window.addEventListener(type, noteInput, options);
}

/**
 * Runs `task` at a moment the browser has to spare (within two seconds at most). On a page no service
 * worker controls yet (a first visit), in the next task instead: what it loads cannot come from the
 * worker's precache, and a connection lost meanwhile would leave the page without it.
 */
export function whenSpare(task: () => void): void {
  if (idleTimeWanted()) requestIdleCallback(task, { timeout: 2000 });
  else setTimeout(task, 0);
}

function idleTimeWanted(): boolean {
  return controlledByServiceWorker() && 'requestIdleCallback' in window;
}

/**
 * As whenSpare, and not within a moment of the mechanic's last tap or key (QUIET_AFTER_INPUT_MS): for
 * the work after the first screen (the sender's start, the tablet's fill, code loaded ahead), not for
 * what a screen shows (its reads start at the first moment to spare).
 */
function whenSpareAndQuiet(task: () => void): void {
  if (!idleTimeWanted()) {
    whenSpare(task);
    return;
  }
  watchInput();
  const latest = performance.now() + POSTPONED_AT_MOST_MS;
  const runWhenQuiet = () => {
    const quietIn = Math.min(lastInputAt + QUIET_AFTER_INPUT_MS, latest) - performance.now();
    if (quietIn > 0) setTimeout(() => whenSpare(runWhenQuiet), quietIn);
    else task();
  };
  whenSpare(runWhenQuiet);
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
  waiting.splice(0).forEach(whenSpareAndQuiet);
}

/**
 * Runs `task` once the first screen is on show, at a moment to spare and not right after the mechanic's
 * input (whenSpareAndQuiet); soon if that is past.
 */
export function afterFirstScreen(task: () => void): void {
  if (shown) whenSpareAndQuiet(task);
  else waiting.push(task);
}
