/**
 * The one sync status the screens follow (the header's indicator, the sending panel, the banner, the
 * statistics), as PowerSync's SyncStatus: the connection, whether something is on its way, the
 * signed-in partner's queue, the sender's last error and last success.
 *
 * Three sources feed it: the browser's online and offline events; the partner's outbox, read live
 * (across tabs, the service worker's sends included) while someone follows the status; and this page's
 * sender, which reports each send (noteSendStarted, noteSendEnded). Light on purpose: the header is
 * part of the first screen, so the outbox's code (Dexie) is loaded only once that screen is live.
 */
import { loadLocalStore } from '../local-query';
import { isOnline } from '../online';
import { currentPartnerId } from '../partner';
import { subscribeSession } from '../session';
import { whenSpare } from '../start-up';
import { createStore } from '../store';
import { lastAttemptFoundNoNetwork, type SendOutcome } from './classify';
import type { QueueFacts } from './outbox-queries';

/** Why the sender's last send failed: the HTTP status (0: no answer) and the API's reason, never the browser's text. */
export interface SyncError {
  code: number;
  reason: string | null;
}

export interface SyncStatus {
  /** What the browser says of the network; null until known (a prerendered page, while it is hydrated). */
  online: boolean | null;
  /** Online, and the server answered the sender's last send (or nothing was sent yet); null until known. */
  connected: boolean | null;
  /** One of the partner's entries is on its way from this page. */
  uploading: boolean;
  /** The queue: the partner's entries still to be sent (pending, sending, waiting for a sign-in). */
  waiting: number;
  /** Refused by the server: they stay until corrected or discarded. */
  rejected: number;
  /** When the oldest waiting entry entered this tablet's outbox (ISO 8601), or null. */
  oldestWaitingAt: string | null;
  /** The last send that did not store its entry (a refusal is the entry's, not the sync's); cleared by a stored one. */
  lastError: SyncError | null;
  /** When a send last stored an entry (ISO 8601), or null. */
  lastSuccessAt: string | null;
}

const EMPTY_QUEUE: QueueFacts = { waiting: 0, rejected: 0, oldestWaitingAt: null };

interface SenderFacts {
  uploads: number;
  /** Whether the server answered the last send; null before any. */
  answered: boolean | null;
  lastError: SyncError | null;
  lastSuccessAt: string | null;
}

const NO_SENDS: SenderFacts = { uploads: 0, answered: null, lastError: null, lastSuccessAt: null };

/** What a prerendered page was rendered with, and so what it hydrates with: nothing known, nothing waiting. */
const UNKNOWN_STATUS: SyncStatus = {
  online: null,
  connected: null,
  uploading: false,
  ...EMPTY_QUEUE,
  lastError: null,
  lastSuccessAt: null,
};

let queue = EMPTY_QUEUE;
let sends = NO_SENDS;
/** The partner the queue and the sends are of. */
let partnerId: string | null = null;

function statusNow(): SyncStatus {
  const online = isOnline();
  return {
    online,
    connected: online && sends.answered !== false,
    uploading: sends.uploads > 0,
    ...queue,
    lastError: sends.lastError,
    lastSuccessAt: sends.lastSuccessAt,
  };
}

/** Only fields that changed make a new status: a screen re-renders only when what it shows changed. */
function sameStatus(a: SyncStatus, b: SyncStatus): boolean {
  return (Object.keys(a) as (keyof SyncStatus)[]).every((field) =>
    field === 'lastError'
      ? a.lastError?.code === b.lastError?.code && a.lastError?.reason === b.lastError?.reason
      : a[field] === b[field],
  );
}

const store = createStore<SyncStatus>(UNKNOWN_STATUS);

function publish(): void {
  const next = statusNow();
  if (!sameStatus(store.get(), next)) store.set(next);
}

/** The status as it is now. */
export function getSyncStatus(): SyncStatus {
  // Nobody follows it, so no event kept it up to date: read afresh (no one to tell).
  if (followers === 0) publish();
  return store.get();
}

/** The status before anything is known: what a prerendered page hydrates with. */
export function getInitialSyncStatus(): SyncStatus {
  return UNKNOWN_STATUS;
}

/**
 * Follows the signed-in partner: a new one (or nobody) has nothing of the previous one's queue or
 * sends. `rewatch`: read the queue again even for the same partner (following starts again).
 */
function followPartner(next: string | null, rewatch = false): void {
  const changed = next !== partnerId;
  if (changed) {
    partnerId = next;
    queue = EMPTY_QUEUE;
    sends = { ...NO_SENDS, uploads: sends.uploads };
  }
  if (changed || rewatch) watchQueue();
  publish();
}

let followers = 0;
let stopFollowing: (() => void) | null = null;
let stopWatchingQueue: (() => void) | null = null;

/** The partner's queue, read live from the outbox (loaded when the browser has a moment to spare). */
function watchQueue(): void {
  stopWatchingQueue?.();
  stopWatchingQueue = null;
  const watched = partnerId;
  if (!watched || followers === 0) return;
  let stopped = false;
  let subscription: { unsubscribe(): void } | null = null;
  stopWatchingQueue = () => {
    stopped = true;
    subscription?.unsubscribe();
  };
  whenSpare(() => {
    if (stopped) return;
    void loadLocalStore().then(({ db, liveQuery, outboxSummary }) => {
      if (stopped) return;
      subscription = liveQuery(() => outboxSummary(db, watched)).subscribe({
        next: (facts) => {
          if (stopped) return;
          queue = facts;
          publish();
        },
        // A failed read leaves the last known queue (the storage's health has its own warnings).
        error: () => undefined,
      });
    });
  });
}

function startFollowing(): () => void {
  const connection = () => publish();
  window.addEventListener('online', connection);
  window.addEventListener('offline', connection);
  const offSession = subscribeSession(() => followPartner(currentPartnerId()));
  followPartner(currentPartnerId(), true);
  return () => {
    window.removeEventListener('online', connection);
    window.removeEventListener('offline', connection);
    offSession();
    stopWatchingQueue?.();
    stopWatchingQueue = null;
    queue = EMPTY_QUEUE;
  };
}

/** Follows the status: `listener` is called after each change. Returns the function that stops it. */
export function subscribeSyncStatus(listener: () => void): () => void {
  const unsubscribe = store.subscribe(listener);
  followers += 1;
  if (followers === 1) stopFollowing = startFollowing();
  let subscribed = true;
  return () => {
    if (!subscribed) return;
    subscribed = false;
    unsubscribe();
    followers -= 1;
    if (followers === 0) {
      stopFollowing?.();
      stopFollowing = null;
    }
  };
}

/** The page's sender started a send of the partner's entry. */
export function noteSendStarted(): void {
  sends = { ...sends, uploads: sends.uploads + 1 };
  publish();
}

/** The page's sender has the outcome of a send (`at`: epoch ms). */
export function noteSendEnded(outcome: SendOutcome, at: number): void {
  const uploads = Math.max(0, sends.uploads - 1);
  if (outcome.kind === 'stored') {
    sends = { uploads, answered: true, lastError: null, lastSuccessAt: new Date(at).toISOString() };
  } else {
    const { code, reason } = outcome.error;
    sends = {
      ...sends,
      uploads,
      answered: !lastAttemptFoundNoNetwork({ lastError: outcome.error }),
      lastError: outcome.kind === 'rejected' ? sends.lastError : { code, reason: reason ?? null },
    };
  }
  publish();
}
