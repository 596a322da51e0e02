/**
 * The session (docs/PRODUCT.md#session, docs/ARCHITECTURE.md#the-offline-model-in-practice). The access token lives in memory only;
 * the refresh token is an HttpOnly cookie the page never sees. The signed-in user is cached in
 * IndexedDB so that, when a refresh fails for lack of network, the mechanic stays signed in and
 * keeps working. Only a 401 from the server signs out.
 */
import { useSyncExternalStore } from 'react';
import type { AuthSession, User } from '../../contract';
import { apiRequest, configureApiClient, isNetworkFailure } from './api/client';
import { db, readMeta, writeMeta } from './db';
import { currentLocale } from './i18n';

export type SessionStatus = 'unknown' | 'authenticated' | 'anonymous';

export interface SessionState {
  status: SessionStatus;
  user: User | null;
  accessToken: string | null;
  /** Signed in from the cache because the server could not be reached. */
  offline: boolean;
}

const CURRENT_ACCOUNT_KEY = 'current-account';
/** A refresh younger than this is not repeated on the next route change. */
const REFRESH_REUSE_MS = 30_000;

let state: SessionState = { status: 'unknown', user: null, accessToken: null, offline: false };
let lastRefreshAt = 0;
let refreshInFlight: Promise<RefreshOutcome> | null = null;
const listeners = new Set<() => void>();
const signInListeners = new Set<(user: User) => void>();

function update(next: Partial<SessionState>) {
  state = { ...state, ...next };
  listeners.forEach((listener) => listener());
}

export function getSession(): SessionState {
  return state;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession);
}

/** Called after every sign-in (login, register, refresh back from offline): the sync engine listens. */
export function onSignIn(listener: (user: User) => void): () => void {
  signInListeners.add(listener);
  return () => signInListeners.delete(listener);
}

async function rememberAccount(user: User) {
  await db.transaction('rw', db.accounts, db.meta, async () => {
    await db.accounts.put({ id: user.id, user, signedInAt: new Date().toISOString() });
    await writeMeta(CURRENT_ACCOUNT_KEY, user.id);
  });
}

async function cachedAccount(): Promise<User | null> {
  const id = await readMeta<string>(CURRENT_ACCOUNT_KEY);
  if (!id) return null;
  return (await db.accounts.get(id))?.user ?? null;
}

/** Stores a session the server just granted (login, register, refresh). */
export async function establishSession(session: AuthSession): Promise<void> {
  const wasSignedIn = state.status === 'authenticated' && !state.offline && state.user?.id === session.user.id;
  lastRefreshAt = Date.now();
  update({ status: 'authenticated', user: session.user, accessToken: session.access_token, offline: false });
  await rememberAccount(session.user).catch(() => undefined);
  if (!wasSignedIn) signInListeners.forEach((listener) => listener(session.user));
  requestPersistentStorage();
}

/** Replaces the stored user after a profile update. */
export async function replaceUser(user: User): Promise<void> {
  update({ user });
  await rememberAccount(user).catch(() => undefined);
}

export type RefreshOutcome = 'ok' | 'unauthorized' | 'offline';

/**
 * Whether a partner is signed in on this tablet: signing in records the current account, signing out
 * and a refused refresh remove it. Without one there is no refresh cookie either. When the tablet's
 * storage cannot be read, assume there may be one (the server decides).
 */
async function mayHaveSession(): Promise<boolean> {
  if (state.status === 'authenticated') return true;
  return readMeta<string>(CURRENT_ACCOUNT_KEY)
    .then((id) => Boolean(id))
    .catch(() => true);
}

async function refreshOnce(): Promise<RefreshOutcome> {
  // Nobody signed in here: asking would only earn a 401, which the browser logs as an error on every
  // public page (and costs a round trip before the sign-in form shows).
  if (!(await mayHaveSession())) {
    update({ status: 'anonymous', user: null, accessToken: null, offline: false });
    return 'unauthorized';
  }
  const result = await apiRequest<AuthSession>('auth', '/refresh', { method: 'POST' });
  if (result.status === 'success') {
    await establishSession(result.data);
    return 'ok';
  }
  if (isNetworkFailure(result) || result.code >= 500) {
    const user = state.user ?? (await cachedAccount().catch(() => null));
    if (user) {
      update({ status: 'authenticated', user, accessToken: null, offline: true });
      return 'offline';
    }
    update({ status: 'anonymous', user: null, accessToken: null, offline: false });
    return 'unauthorized';
  }
  await forgetSession();
  return 'unauthorized';
}

/**
 * One refresh at a time, across tabs too (Web Locks), so two tabs never present the same
 * refresh token at once.
 */
export function refreshSession(): Promise<RefreshOutcome> {
  refreshInFlight ??= (async () => {
    try {
      if (typeof navigator !== 'undefined' && navigator.locks) {
        return await navigator.locks.request('session-refresh', refreshOnce);
      }
      return await refreshOnce();
    } finally {
      refreshInFlight = null;
    }
  })();
  return refreshInFlight;
}

/** The gate's check before each route: refreshes unless a refresh just succeeded. */
export async function ensureSession(): Promise<SessionStatus> {
  const fresh = state.status === 'authenticated' && !state.offline && Date.now() - lastRefreshAt < REFRESH_REUSE_MS;
  if (!fresh) await refreshSession();
  return state.status;
}

/** Clears the session in memory and the current-account pointer; queued entries are kept. */
async function forgetSession() {
  update({ status: 'anonymous', user: null, accessToken: null, offline: false });
  lastRefreshAt = 0;
  await db.meta.delete(CURRENT_ACCOUNT_KEY).catch(() => undefined);
}

export async function logout(): Promise<void> {
  // The server revokes the session; if it cannot be reached, the cookie still expires on its own.
  await apiRequest('auth', '/logout/partner', { method: 'POST' });
  await forgetSession();
}

function requestPersistentStorage() {
  // Queued repairs must survive storage pressure (docs/ARCHITECTURE.md#the-offline-model-in-practice).
  void navigator.storage?.persist?.().catch(() => false);
}

configureApiClient({
  accessToken: () => state.accessToken,
  language: () => currentLocale(),
  refresh: async () => (await refreshSession()) === 'ok',
});
