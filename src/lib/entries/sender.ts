/**
 * The page's one sender (engine.ts) with the browser's parts plugged in: the API transport, the
 * session, the connection, the tabs' lock, the sending status and Background Sync. Apart from
 * index.ts so that the modules index.ts loads on demand (the hand-over) can kick it without a circle.
 */
import { db } from '../db';
import { currentLocale } from '../i18n';
import { isOnline } from '../online';
import { currentPartnerId } from '../partner';
import { getSession } from '../session';
import { randomUuid } from '../uuid';
import { requestBackgroundSync } from './background';
import { SyncEngine } from './engine';
import { createSenderLock } from './lock';
import { noteSendEnded, noteSendStarted } from './status';
import { postOutboxEntry, putOutboxPhoto } from './transport';

let engine: SyncEngine | null = null;

export function getSyncEngine(): SyncEngine {
  engine ??= new SyncEngine({
    db,
    transport: postOutboxEntry,
    photoTransport: putOutboxPhoto,
    session: { partnerId: currentPartnerId, offline: () => getSession().offline },
    networkDown: () => !isOnline(),
    lock: createSenderLock(db, randomUuid()),
    onError: (error) => console.error('outbox sender', error),
    observer: { started: noteSendStarted, ended: noteSendEnded },
    // Where the browser has Background Sync, the service worker sends them even once the tab is closed.
    onWaiting: () => void requestBackgroundSync(db, currentLocale()).catch(() => undefined),
  });
  return engine;
}

/** The next getSyncEngine() makes a new sender (once the previous one is stopped). */
export function forgetSyncEngine(): void {
  engine = null;
}
