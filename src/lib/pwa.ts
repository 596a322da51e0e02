/**
 * Service worker registration (workbox-window) and the new-version offer. Registration happens in
 * production builds only; a waiting worker is applied only when the mechanic accepts.
 */
import { useSyncExternalStore } from 'react';
import type { Workbox } from 'workbox-window';
import { createStore } from './store';

let workbox: Workbox | null = null;
const updateWaiting = createStore(false);

/** `reload` is the page's own reload; tests pass a spy. */
export async function registerServiceWorker(reload = () => window.location.reload()): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const { Workbox } = await import('workbox-window');
  const registering = new Workbox('/sw.js', { scope: '/' });
  registering.addEventListener('waiting', () => updateWaiting.set(true));
  // The first worker claims the page that installed it (src/sw.ts): the page's code stays the same,
  // so no reload. A worker taking over from another is a new version: reload so the page and its
  // assets are of one version. Workbox's isUpdate cannot tell these apart in a page that was first
  // claimed and then updated, without a reload in between; whether a worker controlled it can.
  let controlled = navigator.serviceWorker.controller !== null;
  registering.addEventListener('controlling', () => {
    if (controlled) reload();
    controlled = true;
  });
  try {
    await registering.register();
  } catch {
    // No worker on this visit (the browser refused it, or its script could not be fetched): the
    // next visit registers again.
    return;
  }
  workbox = registering;
  // Tablets stay open all day: look for a new version every hour and when the tab comes back.
  // Offline the check fails; the next one tries again.
  const checkForUpdate = () => void registering.update().catch(() => undefined);
  setInterval(checkForUpdate, 60 * 60 * 1000);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') checkForUpdate();
  });
}

export function applyUpdate() {
  workbox?.messageSkipWaiting();
}

export function useUpdateWaiting(): boolean {
  return useSyncExternalStore(updateWaiting.subscribe, updateWaiting.get, () => false);
}

/** Chromium's install offer (`beforeinstallprompt`), kept so the portal can offer installing itself. */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

const installOffer = createStore<InstallPromptEvent | null>(null);

/**
 * Listens for the browser's install offer from the start (it may come before any screen wants it).
 * The browser's own install banner is left alone: the offer is only kept.
 */
export function keepInstallOffer(): void {
  window.addEventListener('beforeinstallprompt', (event) => installOffer.set(event as InstallPromptEvent));
  window.addEventListener('appinstalled', () => installOffer.set(null));
}

/** Whether the portal can offer to install itself now (Chromium, not installed yet). */
export function useInstallOffered(): boolean {
  return useSyncExternalStore(
    installOffer.subscribe,
    () => installOffer.get() !== null,
    () => false,
  );
}

/** Shows the browser's install dialog; true when the mechanic accepted. An offer is used once. */
export async function offerInstall(): Promise<boolean> {
  const offer = installOffer.get();
  if (!offer) return false;
  installOffer.set(null);
  await offer.prompt();
  return (await offer.userChoice).outcome === 'accepted';
}
