/**
 * The entries module's door for the service worker (docs/ARCHITECTURE.md#the-offline-model-in-practice):
 * the Background Sync tag the page registers, and the send the worker runs when the browser wakes it.
 */
export { OUTBOX_SYNC_TAG } from './background';
export { sendOutboxFromWorker } from './background-worker';
