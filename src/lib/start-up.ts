/**
 * The page's start-up (docs/ARCHITECTURE.md#start-up): work the first screen does not need (filling
 * the tablet after a sign-in, the outbox's sender) waits until that screen is on show and can be
 * typed in, and then for a moment the browser has to spare, instead of competing with it.
 */
let shown = false;
const waiting: (() => void)[] = [];

function whenIdle(task: () => void): void {
  if ('requestIdleCallback' in window) requestIdleCallback(task, { timeout: 2000 });
  else setTimeout(task, 0);
}

/** Performance mark set when the first screen is on show (start-up figures and tests read it). */
export const SCREEN_SHOWN_MARK = 'screen-shown';

/** The router says so once the first screen has been rendered (or hydrated) with its content. */
export function screenShown(): void {
  if (shown) return;
  shown = true;
  performance.mark(SCREEN_SHOWN_MARK);
  waiting.splice(0).forEach(whenIdle);
}

/** Runs `task` once the first screen is on show and the browser is idle; soon if that is past. */
export function afterFirstScreen(task: () => void): void {
  if (shown) whenIdle(task);
  else waiting.push(task);
}
