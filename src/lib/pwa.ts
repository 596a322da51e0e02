/**
 * Service worker registration (workbox-window) and the new-version offer. Registration happens in
 * production builds only; a waiting worker is applied only when the mechanic accepts.
 */
import { useSyncExternalStore } from 'react';
import type { Workbox } from 'workbox-window';

let workbox: Workbox | null = null;
let updateWaiting = false;
const listeners = new Set<() => void>();

function setUpdateWaiting(value: boolean) {
  updateWaiting = value;
  listeners.forEach((listener) => listener());
}

export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const { Workbox } = await import('workbox-window');
  workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', () => setUpdateWaiting(true));
  // Once the new worker controls the page, reload so the page and its assets are of one version.
  workbox.addEventListener('controlling', (event) => {
    if (event.isUpdate) window.location.reload();
  });
  await workbox.register();
  // Tablets stay open all day: look for a new version every hour and when the tab comes back.
  setInterval(() => void workbox?.update(), 60 * 60 * 1000);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void workbox?.update();
  });
}

export function applyUpdate() {
  workbox?.messageSkipWaiting();
}

export function useUpdateWaiting(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => updateWaiting,
  );
}
