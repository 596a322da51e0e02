/**
 * The service worker's sender (docs/ARCHITECTURE.md#the-offline-model-in-practice): when the browser
 * fires the outbox's background sync (background.ts), the pages' engine sends the signed-in partner's
 * entries with the same lock, Idempotency-Keys, per-vehicle order, classification, backoff and
 * acknowledgement, even with every tab of the portal closed.
 *
 * The worker has no page session. Its first send asks for one itself: POST /auth/refresh, same origin
 * with credentials and X-Origin like the pages, under the pages' refresh lock (session-keys.ts), so no
 * two contexts ever present one refresh token at once. The browser stores the rotated cookie of the
 * answer, which the pages' next refresh presents. A refused refresh leaves the partner's entries
 * waiting for the next sign-in, as a page's 401 does; an unreachable server leaves them for a later try.
 */
import type { AuthSession } from '../../../contract';
import { endpointAnswers } from '../../../contract/endpoint-list';
import { apiCall } from '../api/call';
import { configureAnswerSchemas, configureApiClient, isNetworkFailure, type ApiResponse } from '../api/client';
import { db as portalDb, type PortalDatabase } from '../db';
import { CURRENT_ACCOUNT_KEY, PENDING_SIGN_OUT_KEY, SESSION_REFRESH_LOCK } from '../session-keys';
import { randomUuid } from '../uuid';
import { SYNC_LANGUAGE_KEY } from './background';
import type { TransportFailure } from './classify';
import { SyncEngine, type RepairTransport, type Scheduler, type SenderSession } from './engine';
import { createSenderLock, type SenderLock } from './lock';
import { leftForLaterTry } from './outbox-queries';
import { nextPhotoDue, type PhotoTransport } from './photo-sender';
import { postOutboxEntry, putOutboxPhoto } from './transport';

/** What a send gets instead of going out when the refresh brought another partner's session. */
const OTHER_PARTNER: TransportFailure = {
  code: 0,
  status: 'error',
  error: { type: 'other', reason: 'network', message: 'the session belongs to another partner' },
};

/**
 * The worker's session for one sync: the partner signed in on the tablet, and the access token its
 * refresh cookie is exchanged for, asked at the first send only (nothing due, no refresh).
 */
export class BackgroundSession implements SenderSession {
  private partner: string | null;
  private token: string | null = null;
  private unreachable = false;
  private first: Promise<TransportFailure | null> | null = null;
  private renewed = false;

  constructor(
    partnerId: string,
    private readonly refresh: () => Promise<ApiResponse<AuthSession>>,
  ) {
    this.partner = partnerId;
  }

  partnerId = (): string | null => this.partner;
  /** As a page's cached session: the server could not be reached, so a 401 is no refusal. */
  offline = (): boolean => this.unreachable;
  accessToken = (): string | null => this.token;

  /** Null once a session is granted; otherwise what every send answers instead (401 refused, 0 or 5xx unreachable). */
  granted(): Promise<TransportFailure | null> {
    this.first ??= this.ask();
    return this.first;
  }

  /** The API client's one retry after a 401 (the family may have been revoked meanwhile): one more refresh. */
  async renew(): Promise<boolean> {
    if (this.renewed) return false;
    this.renewed = true;
    return (await this.ask()) === null;
  }

  private async ask(): Promise<TransportFailure | null> {
    const answer = await this.refresh();
    if (answer.status === 'success') {
      this.token = answer.data.access_token;
      this.unreachable = false;
      if (answer.data.user.id === this.partner) return null;
      // A sign-in changed hands meanwhile: nothing of this partner may go under that session.
      this.partner = null;
      return OTHER_PARTNER;
    }
    this.token = null;
    this.unreachable = isNetworkFailure(answer) || answer.code >= 500;
    // Refused (as a page's refresh, any other answer ends the session): sends answer as to a dead session.
    return this.unreachable ? answer : { ...answer, code: 401 };
  }
}

export interface BackgroundSenderOptions {
  db: PortalDatabase;
  lock: SenderLock;
  /** POST /auth/refresh under the refresh lock. */
  refresh: () => Promise<ApiResponse<AuthSession>>;
  /** Wires the API client to this sync's session and language (the worker's requests carry them). */
  useSession: (session: BackgroundSession, language: string) => void;
  /** POST /partner/repairs through the API client. */
  transport: RepairTransport;
  /** PUT /partner/repairs/{id}/photo through the API client; without it, photos wait for a page. */
  photoTransport?: PhotoTransport;
  scheduler?: Scheduler;
  random?: () => number;
}

/** The partner signed in on the tablet, unless nobody is or a sign-out is still owed to the server. */
async function signedInPartner(db: PortalDatabase): Promise<string | null> {
  const [account, signOutOwed] = await Promise.all([
    db.meta.get(CURRENT_ACCOUNT_KEY),
    db.meta.get(PENDING_SIGN_OUT_KEY),
  ]);
  if (signOutOwed?.value || typeof account?.value !== 'string') return null;
  return account.value;
}

async function syncLanguage(db: PortalDatabase): Promise<string> {
  const value = (await db.meta.get(SYNC_LANGUAGE_KEY))?.value;
  return typeof value === 'string' ? value : 'fr';
}

/**
 * One background sync: one pass of the engine over the signed-in partner's outbox. Rejects when
 * entries are left for a later try (no network, a 5xx, a backoff not yet over), which is how the
 * browser is told to fire the sync again later; it gives up after a few attempts, and the pages ask
 * again when entries wait. Entries waiting for a sign-in or refused never make it try again.
 */
export async function sendInBackground(options: BackgroundSenderOptions): Promise<void> {
  const { db } = options;
  const partnerId = await signedInPartner(db);
  if (!partnerId) return;
  const session = new BackgroundSession(partnerId, options.refresh);
  options.useSession(session, await syncLanguage(db));
  const engine = new SyncEngine({
    db,
    session,
    lock: options.lock,
    transport: async (row) => (await session.granted()) ?? options.transport(row),
    ...(options.photoTransport ? { photoTransport: grantedFirst(session, options.photoTransport) } : {}),
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    ...(options.random ? { random: options.random } : {}),
    onError: (error) => console.error('background sender', error),
  });
  try {
    await engine.kick('start');
  } finally {
    engine.stop();
    await engine.idle();
  }
  if ((await leftForLaterTry(db, partnerId)) || (await nextPhotoDue(db, partnerId)) !== null) {
    throw new Error('outbox entries or photos are left for a later try');
  }
}

/** A photo goes only once the worker's session is granted, as an entry does. */
function grantedFirst(session: BackgroundSession, transport: PhotoTransport): PhotoTransport {
  return async (repairId, photo) => (await session.granted()) ?? transport(repairId, photo);
}

/** POST /auth/refresh, one refresh at a time with the pages (Web Locks exist wherever Background Sync does). */
async function refreshUnderLock(): Promise<ApiResponse<AuthSession>> {
  const refresh = () => apiCall('POST auth /refresh');
  return navigator.locks ? await navigator.locks.request(SESSION_REFRESH_LOCK, refresh) : refresh();
}

let previous: Promise<unknown> = Promise.resolve();

/**
 * The service worker's `sync` handler for OUTBOX_SYNC_TAG. Syncs run one after the other: the API
 * client's session hooks are the worker's, one at a time, and the browser may fire a sync while
 * another runs (its own once the network is back, and one from DevTools, say).
 */
export function sendOutboxFromWorker(): Promise<void> {
  const next = previous.catch(() => undefined).then(sendOnce);
  previous = next;
  return next;
}

// The worker is a classic script: the answers' schemas are part of it, not a chunk it would import.
configureAnswerSchemas(async (endpoint) => endpointAnswers(endpoint));

function sendOnce(): Promise<void> {
  return sendInBackground({
    db: portalDb,
    lock: createSenderLock(portalDb, randomUuid()),
    refresh: refreshUnderLock,
    useSession: (session, language) =>
      configureApiClient({
        accessToken: session.accessToken,
        language: () => language,
        refresh: () => session.renew(),
        beforeRequest: async () => undefined,
      }),
    transport: postOutboxEntry,
    photoTransport: putOutboxPhoto,
  });
}
