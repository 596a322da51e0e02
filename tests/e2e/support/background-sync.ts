/**
 * Firing the outbox's background sync in Chromium's service worker through the DevTools protocol, as
 * the browser does once the connection is back (docs/ARCHITECTURE.md#the-offline-model-in-practice).
 */
import type { CDPSession, Page } from 'playwright-core';
import { OUTBOX_SYNC_TAG } from '../../../src/lib/entries/background';

/** The portal's service worker registration, as the DevTools protocol names it. */
async function registrationId(cdp: CDPSession, portalUrl: string): Promise<string> {
  const scope = `${portalUrl}/`;
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((registration) => registration.scopeURL === scope && !registration.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}

/** Fires the outbox's sync in the worker; `page`: any page of the context, a blank one included. */
export async function fireSync(page: Page, portalUrl: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const id = await registrationId(cdp, portalUrl);
  await cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin: portalUrl,
    registrationId: id,
    tag: OUTBOX_SYNC_TAG,
    lastChance: false,
  });
  await cdp.detach();
}
