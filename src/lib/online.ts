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
