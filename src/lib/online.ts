/** Whether the browser believes it is online (navigator.onLine and its events). */
import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

export function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/**
 * Calls `whenOffline` now if the browser is offline and each time it goes offline; returns the
 * unsubscribe. For work that follows the connection without drawing it: no state, so no render (a
 * component reading `useOnline` while hydrating an offline page renders again at once, in one
 * blocking task).
 */
export function watchOffline(whenOffline: () => void): () => void {
  const check = () => {
    if (!isOnline()) whenOffline();
  };
  check();
  return subscribe(check);
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}

/**
 * The connection as far as a screen may claim it: null in a prerendered page and while React hydrates
 * it, since the build cannot know the tablet's connection (an offline reload must not say "online"
 * until the app has looked), then what the browser says.
 */
export function useKnownConnection(): boolean | null {
  return useSyncExternalStore<boolean | null>(subscribe, isOnline, () => null);
}
