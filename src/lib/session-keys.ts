/**
 * Names the page's session (session.ts) shares with the service worker's background sender
 * (sync/background-worker.ts, docs/ARCHITECTURE.md#the-offline-model-in-practice), kept apart so the
 * worker reads them without bundling the page's session code.
 */

/** Meta row naming the partner signed in on this tablet; absent when nobody is (no refresh cookie either). */
export const CURRENT_ACCOUNT_KEY = 'current-account';

/** Set when a sign-out could not reach the server: its revocation is still owed. */
export const PENDING_SIGN_OUT_KEY = 'pending-sign-out';

/** The Web Lock every refresh takes, the worker's too: two contexts never present the same refresh token at once. */
export const SESSION_REFRESH_LOCK = 'session-refresh';

/** The tablet's IndexedDB database (db.ts): a start asks whether it exists without loading Dexie. */
export const DATABASE_NAME = 'garage-portal';
