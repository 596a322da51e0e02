/**
 * The session (docs/PRODUCT.md#session, docs/ARCHITECTURE.md#the-offline-model-in-practice). The access token lives in memory only;
 * the refresh token is an HttpOnly cookie the page never sees. The signed-in user is cached in
 * IndexedDB so that, when a refresh fails for lack of network, the mechanic stays signed in and
 * keeps working. Only a 401 from the server signs out. What a start must know first (signed in or
 * not, a sign-out owed) is mirrored in localStorage (session-mirror.ts): IndexedDB's code loads only
 * once a partner is signed in.
 *
 * Signing out on a shared tablet leaves nothing behind: the partner's data leaves the device (all but
 * their unsent entries), and a sign-out the server could not hear (offline) is owed to it: it goes
 * before any other request at the next connection, so the refresh cookie still in the browser is
 * revoked before anyone can use it. Until then the tablet never asks for a refresh with that cookie.
 *
 * A session ended from another device (docs/PRODUCT.md#connected-devices) signs out the same way at
 * the tablet's next contact: the refresh, or a call's 401, says `session_revoked`, and /login says so
 * until the next sign-in.
 */
import { useSyncExternalStore } from 'react';
import type { ApiFailure, AuthSession, User } from '../../contract';
import { apiCall } from './api/call';
import { loadAnswerSchemas } from './api/answer-schemas';
import { configureAnswerSchemas, configureApiClient, isNetworkFailure } from './api/client';
import type { ApiBase } from './api/config';
import { ODOMETER_PHOTOS_CACHE, PICTURES_CACHE } from './cache-names';
import { currentLocale } from './i18n';
import { CURRENT_ACCOUNT_KEY, DATABASE_NAME, PENDING_SIGN_OUT_KEY, SESSION_REFRESH_LOCK } from './session-keys';
import { readSessionMirror, writeSessionMirror, type SessionMirror } from './session-mirror';
import { singleFlight } from './single-flight';
import { afterFirstScreen } from './start-up';
import { createStore } from './store';

/** IndexedDB, loaded when first needed: a sign-in, a sign-out, or a tablet without the mirror yet. */
const database = () => import('./db');

export type SessionStatus = 'unknown' | 'authenticated' | 'anonymous';

export interface SessionState {
  status: SessionStatus;
  user: User | null;
  accessToken: string | null;
  /** Signed in from the cache because the server could not be reached. */
  offline: boolean;
}

const LOGOUT_PATH = '/logout/partner';
/** A refresh younger than this is not repeated on the next route change. */
const REFRESH_REUSE_MS = 30_000;

/** What a prerendered page was rendered with, and so what the page hydrates with: nobody known yet. */
const UNKNOWN_SESSION: SessionState = { status: 'unknown', user: null, accessToken: null, offline: false };

const sessionStore = createStore<SessionState>(UNKNOWN_SESSION);

/** The reason the server gives when this device's session was ended elsewhere (another device, a password change). */
const SESSION_REVOKED = 'session_revoked';

/**
 * Whether the last sign-out was this device's session ended from elsewhere: /login says so until the
 * next sign-in. Kept in the mirror, so a reload still says it (a prerendered page was built without it).
 */
const signedOutElsewhereStore = createStore<boolean>(readSessionMirror()?.signedOutElsewhere === true);

function setSignedOutElsewhere(value: boolean) {
  if ((readSessionMirror()?.signedOutElsewhere ?? false) !== value) writeSessionMirror({ signedOutElsewhere: value });
  signedOutElsewhereStore.set(value);
}

/** True on /login after this device was signed out from another one, until the next sign-in; false in a prerendered page. */
export function useSignedOutElsewhere(): boolean {
  return useSyncExternalStore(signedOutElsewhereStore.subscribe, signedOutElsewhereStore.get, () => false);
}

/** A call's 401 said `session_revoked`: a refresh refused next is a sign-out from elsewhere, whatever its own reason. */
let revokedSeen = false;
let lastRefreshAt = 0;
const signInListeners = new Set<(user: User) => void>();

function update(next: Partial<SessionState>) {
  sessionStore.update((current) => ({ ...current, ...next }));
}

export function getSession(): SessionState {
  return sessionStore.get();
}

export function subscribeSession(listener: () => void): () => void {
  return sessionStore.subscribe(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, () => UNKNOWN_SESSION);
}

/** Called after every sign-in (login, register, refresh back from offline): the sync engine listens. */
export function onSignIn(listener: (user: User) => void): () => void {
  signInListeners.add(listener);
  return () => signInListeners.delete(listener);
}

/**
 * `handoverKey`: the partner's hand-over key from a sign-in answer (docs/ARCHITECTURE.md#the-hand-over-file),
 * kept with the account in IndexedDB only (not in the localStorage mirror, which every start reads), so
 * an offline tablet can seal and check hand-over files. A profile update brings none: the kept one stays.
 */
async function rememberAccount(user: User, handoverKey?: string) {
  const known = JSON.stringify(readSessionMirror()?.account ?? null) === JSON.stringify(user);
  writeSessionMirror({ account: user });
  const write = async () => {
    const { db, writeMeta } = await database();
    await db.transaction('rw', db.accounts, db.meta, async () => {
      const kept = (await db.accounts.get(user.id))?.handoverKey;
      const key = handoverKey ?? kept;
      await db.accounts.put({
        id: user.id,
        user,
        signedInAt: new Date().toISOString(),
        ...(key ? { handoverKey: key } : {}),
      });
      await writeMeta(CURRENT_ACCOUNT_KEY, user.id);
    });
  };
  // The session refreshed at start brings back the account the tablet already holds: its copy in
  // IndexedDB (for the service worker) is renewed once the first screen is live, whose code does not
  // include IndexedDB's (docs/ARCHITECTURE.md#start-up). A new or changed account is written at once.
  if (known) afterFirstScreen(() => void write().catch(() => undefined));
  else await write();
}

/** Whether the tablet has the portal's database at all (a first visit has not), asked without Dexie. */
async function databaseMayExist(): Promise<boolean> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return true;
  return (await indexedDB.databases()).some((info) => info.name === DATABASE_NAME);
}

/** The mirror as IndexedDB has it, for a tablet that has no mirror yet (written then, for the next start). */
async function mirrorFromDatabase(): Promise<SessionMirror> {
  if (!(await databaseMayExist())) {
    const nobody = { account: null, pendingSignOut: false };
    writeSessionMirror(nobody);
    return nobody;
  }
  const { db, readMeta } = await database();
  const id = await readMeta<string>(CURRENT_ACCOUNT_KEY);
  const account = id ? ((await db.accounts.get(id))?.user ?? null) : null;
  const mirror = { account, pendingSignOut: Boolean(await readMeta<boolean>(PENDING_SIGN_OUT_KEY)) };
  writeSessionMirror(mirror);
  return mirror;
}

/** One read of IndexedDB at a time: the start's two questions (signed in? sign-out owed?) share it. */
const readMirrorFromDatabase = singleFlight(mirrorFromDatabase);

/** What the tablet knows of its session: the mirror at once, IndexedDB the first time. */
async function knownSession(): Promise<SessionMirror> {
  return readSessionMirror() ?? readMirrorFromDatabase();
}

async function cachedAccount(): Promise<User | null> {
  return (await knownSession()).account;
}

/** Stores a session the server just granted (login, register, refresh). */
export async function establishSession(session: AuthSession): Promise<void> {
  const current = sessionStore.get();
  const wasSignedIn = current.status === 'authenticated' && !current.offline && current.user?.id === session.user.id;
  lastRefreshAt = Date.now();
  // The server just set a new refresh cookie over the old one: a sign-out still owed would revoke this one.
  await setPendingSignOut(false);
  revokedSeen = false;
  setSignedOutElsewhere(false);
  update({ status: 'authenticated', user: session.user, accessToken: session.access_token, offline: false });
  await rememberAccount(session.user, session.handover_key).catch(() => undefined);
  if (!wasSignedIn) signInListeners.forEach((listener) => listener(session.user));
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
  if (sessionStore.get().status === 'authenticated') return true;
  return knownSession()
    .then((known) => known.account !== null)
    .catch(() => true);
}

async function refreshOnce(): Promise<RefreshOutcome> {
  // Nobody signed in here: asking would only earn a 401, which the browser logs as an error on every
  // public page (and costs a round trip before the sign-in form shows).
  if (!(await mayHaveSession())) {
    update({ status: 'anonymous', user: null, accessToken: null, offline: false });
    return 'unauthorized';
  }
  const signOutsBefore = signOuts;
  const result = await apiCall('POST auth /refresh');
  // The partner signed out while the refresh was under way: its answer never signs them back in (nor
  // brings their account back onto a shared tablet).
  if (signOuts !== signOutsBefore) return 'unauthorized';
  if (result.status === 'success') {
    await establishSession(result.data);
    return 'ok';
  }
  // Not an answer about the session: the server is away, busy, or counting refreshes (429). The
  // partner stays signed in, offline, and the next call tries again.
  if (isNetworkFailure(result) || result.code >= 500 || result.code === 429) {
    const user = sessionStore.get().user ?? (await cachedAccount().catch(() => null));
    if (user) {
      update({ status: 'authenticated', user, accessToken: null, offline: true });
      return 'offline';
    }
    update({ status: 'anonymous', user: null, accessToken: null, offline: false });
    return 'unauthorized';
  }
  // Ended from another device: this call's answer said so, a call's 401 that asked for this refresh did,
  // or the service worker's sync heard it first.
  const elsewhere = result.error?.reason === SESSION_REVOKED || revokedSeen || (await revokedInTheBackground());
  revokedSeen = false;
  await forgetSession({ elsewhere });
  return 'unauthorized';
}

/**
 * The service worker's sync may have presented the revoked session first: the server then cleared the
 * cookie, and this page's refresh hears only that there is none. The entries the worker parked for the
 * next sign-in keep the reason it was told.
 */
async function revokedInTheBackground(): Promise<boolean> {
  const partnerId = sessionStore.get().user?.id ?? (await cachedAccount().catch(() => null))?.id;
  if (!partnerId) return false;
  const [{ db }, { parkedFor }] = await Promise.all([database(), import('./entries/outbox')]);
  return parkedFor(db, partnerId, SESSION_REVOKED).catch(() => false);
}

/**
 * One refresh at a time, across tabs and the service worker too (Web Locks), so two of them never
 * present the same refresh token at once.
 */
export const refreshSession = singleFlight(async (): Promise<RefreshOutcome> => {
  if (typeof navigator !== 'undefined' && navigator.locks) {
    return navigator.locks.request(SESSION_REFRESH_LOCK, refreshOnce);
  }
  return refreshOnce();
});

let pendingSignOut: boolean | null = null;

async function hasPendingSignOut(): Promise<boolean> {
  pendingSignOut ??= await knownSession()
    .then((known) => known.pendingSignOut)
    .catch(() => false);
  return pendingSignOut;
}

async function setPendingSignOut(pending: boolean): Promise<void> {
  if (!pending && pendingSignOut === false) return;
  pendingSignOut = pending;
  writeSessionMirror({ pendingSignOut: pending });
  // The service worker's sender reads it from IndexedDB: it must not send for a partner signed out.
  await database()
    .then(({ db, writeMeta }) =>
      pending ? writeMeta(PENDING_SIGN_OUT_KEY, true) : db.meta.delete(PENDING_SIGN_OUT_KEY),
    )
    .catch(() => undefined);
}

/**
 * Carries out a sign-out the server has not heard yet (made offline): revokes the session of the
 * refresh cookie still in the browser. Runs before every request, at start and when the network returns.
 */
export const settlePendingSignOut = singleFlight(async (): Promise<void> => {
  if (!(await hasPendingSignOut())) return;
  const result = await apiCall('POST auth /logout/partner');
  if (result.status === 'success') await setPendingSignOut(false);
});

function beforeRequest(base: ApiBase, path: string): Promise<void> {
  // The owed sign-out is itself a request: it must not wait for itself.
  if (base === 'auth' && path === LOGOUT_PATH) return Promise.resolve();
  return settlePendingSignOut();
}

/** The gate's check before each route: refreshes unless a refresh just succeeded. */
export async function ensureSession(): Promise<SessionStatus> {
  void settlePendingSignOut();
  const current = sessionStore.get();
  const fresh = current.status === 'authenticated' && !current.offline && Date.now() - lastRefreshAt < REFRESH_REUSE_MS;
  if (!fresh) await refreshSession();
  return sessionStore.get().status;
}

/**
 * Clears the session in memory and everything of the partner on the tablet but their queued entries
 * (they leave at the partner's next sign-in), their pictures included.
 */
/** Sign-outs so far in this page: a refresh answered after one is dropped (refreshOnce). */
let signOuts = 0;

async function forgetSession({ elsewhere = false }: { elsewhere?: boolean } = {}) {
  signOuts += 1;
  if (elsewhere) setSignedOutElsewhere(true);
  const partnerId = sessionStore.get().user?.id ?? (await cachedAccount().catch(() => null))?.id;
  update({ status: 'anonymous', user: null, accessToken: null, offline: false });
  lastRefreshAt = 0;
  writeSessionMirror({ account: null });
  await database()
    .then(async ({ db, forgetPartnerData }) => {
      await db.meta.delete(CURRENT_ACCOUNT_KEY);
      if (partnerId) await forgetPartnerData(partnerId);
    })
    .catch(() => undefined);
  await globalThis.caches?.delete(PICTURES_CACHE).catch(() => false);
  await globalThis.caches?.delete(ODOMETER_PHOTOS_CACHE).catch(() => false);
}

export async function logout(): Promise<void> {
  // The server revokes the session; if it cannot be reached, the revocation is owed to it and goes
  // first at the next connection (the tablet forgets the partner either way, at once).
  const result = await apiCall('POST auth /logout/partner');
  if (result.status !== 'success') await setPendingSignOut(true);
  await forgetSession();
}

/** Carries out an owed sign-out as soon as the network returns; returns the function that stops watching. */
export function settleSignOutWhenOnline(): () => void {
  const online = () => void settlePendingSignOut();
  window.addEventListener('online', online);
  return () => window.removeEventListener('online', online);
}

// The answers' schemas come with the calls that need them (docs/ARCHITECTURE.md#start-up).
configureAnswerSchemas(loadAnswerSchemas);
configureApiClient({
  accessToken: () => sessionStore.get().accessToken,
  language: () => currentLocale(),
  refresh: async (failure?: ApiFailure) => {
    if (failure?.error?.reason === SESSION_REVOKED) revokedSeen = true;
    return (await refreshSession()) === 'ok';
  },
  beforeRequest,
});
