/**
 * Background sync (docs/ARCHITECTURE.md#the-offline-model-in-practice): the service worker's sender is
 * the pages' engine under a session it refreshes itself; it shares the pages' lock, sends only the
 * signed-in partner's entries, leaves them for the next sign-in when its refresh is refused, and
 * tells the browser to try again when entries are left. The page asks for the sync whenever entries wait.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthSession } from '../../../../contract';
import type { ApiResponse } from '../../../../src/lib/api/client';
import type { PortalDatabase } from '../../../../src/lib/db';
import { CURRENT_ACCOUNT_KEY, PENDING_SIGN_OUT_KEY } from '../../../../src/lib/session-keys';
import {
  backgroundSyncAvailable,
  OUTBOX_SYNC_TAG,
  requestBackgroundSync,
  SYNC_LANGUAGE_KEY,
} from '../../../../src/lib/entries/background';
import { sendInBackground, type BackgroundSession } from '../../../../src/lib/entries/background-worker';
import { SyncEngine } from '../../../../src/lib/entries/engine';
import type { SenderLock } from '../../../../src/lib/entries/lock';
import { addToOutbox } from '../../../../src/lib/entries/outbox';
import {
  FakeSession,
  flush,
  freshDatabase,
  ManualScheduler,
  memoryLock,
  networkFailure,
  partnerUser,
  repair,
  sequentialUuids,
  ServerDouble,
  unauthorized,
} from './support';

const databases: PortalDatabase[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (databases.length > 0) {
    const db = databases.pop();
    db?.close();
    await db?.delete();
  }
});

function database(): PortalDatabase {
  const db = freshDatabase();
  databases.push(db);
  return db;
}

const granted = (id: string): ApiResponse<AuthSession> => ({
  code: 200,
  status: 'success',
  data: { access_token: `token-of-${id}`, user: partnerUser(id) },
});

/** What the refresh route answers when the cookie is gone, rotated long ago or revoked. */
const refused: ApiResponse<AuthSession> = {
  code: 401,
  status: 'error',
  error: { type: 'auth', reason: 'session_expired', message: 'Session expirée' },
};

const clock = () => Date.parse('2025-03-01T08:00:00.000Z');

/** Entries queued on the tablet (nothing sent yet), in the mechanic's order. */
async function queue(db: PortalDatabase, partnerId: string, kodeIds: string[]) {
  const uuid = sequentialUuids(`00000000-0000-4000-8000-${partnerId === 'partner-a' ? 'a' : 'b'}`);
  const keys: string[] = [];
  for (const [i, kodeId] of kodeIds.entries()) {
    const recordedAt = new Date(clock() + i).toISOString();
    keys.push((await addToOutbox(db, { key: uuid(), partnerId, input: repair(kodeId, 1000 + i), recordedAt })).key);
  }
  return keys;
}

async function signedIn(db: PortalDatabase, partnerId: string) {
  await db.meta.put({ key: CURRENT_ACCOUNT_KEY, value: partnerId });
}

interface Worker {
  run: () => Promise<void>;
  refresh: ReturnType<typeof vi.fn<() => Promise<ApiResponse<AuthSession>>>>;
  /** The token each request went with, as the server double saw it. */
  tokens: (string | null)[];
  language: () => string | null;
}

/** The worker's sender as src/sw.ts runs it, with the server double behind its API client. */
function worker(db: PortalDatabase, server: ServerDouble, lock: SenderLock, answer: ApiResponse<AuthSession>): Worker {
  const refresh = vi.fn(async () => answer);
  const tokens: (string | null)[] = [];
  let session: BackgroundSession | null = null;
  let language: string | null = null;
  return {
    refresh,
    tokens,
    language: () => language,
    run: () =>
      sendInBackground({
        db,
        lock,
        refresh,
        useSession: (current, chosen) => {
          session = current;
          language = chosen;
        },
        transport: (row) => {
          tokens.push(session?.accessToken() ?? null);
          return server.transport(row);
        },
        scheduler: new ManualScheduler(),
        random: () => 0.5,
      }),
  };
}

function byVehicle(server: ServerDouble): Record<string, number[]> {
  const sent: Record<string, number[]> = {};
  for (const call of server.calls) (sent[call.body.kode_id] ??= []).push(call.body.odometer);
  return sent;
}

describe('background sync: the worker sends the outbox like a page', () => {
  it('sends the signed-in partner’s entries under the refreshed session and acknowledges them into the history', async () => {
    const db = database();
    await signedIn(db, 'partner-a');
    await db.meta.put({ key: SYNC_LANGUAGE_KEY, value: 'ar' });
    const keys = await queue(db, 'partner-a', ['KODE000001', 'KODE000002', 'KODE000001']);
    const theirs = await queue(db, 'partner-b', ['KODE000003']);
    const server = new ServerDouble();
    const sender = worker(db, server, memoryLock(), granted('partner-a'));

    await sender.run();

    expect(sender.refresh).toHaveBeenCalledTimes(1);
    expect(sender.language()).toBe('ar');
    expect(server.keysSent().sort()).toEqual([...keys].sort());
    expect(sender.tokens).toEqual(keys.map(() => 'token-of-partner-a'));
    expect(byVehicle(server)).toEqual({ KODE000001: [1000, 1002], KODE000002: [1001] });
    expect((await db.history.toArray()).map((row) => row.idempotency_key).sort()).toEqual([...keys].sort());
    // Another partner's entry waits for their own sign-in.
    expect((await db.outbox.toArray()).map((row) => row.key)).toEqual(theirs);
  });

  it('races a page’s sender over one outbox: each entry sent once, every vehicle in order', async () => {
    const db = database();
    await signedIn(db, 'partner-a');
    const kodeIds = ['KODE000001', 'KODE000002', 'KODE000003'].flatMap((kodeId) => [kodeId, kodeId, kodeId]);
    const keys = await queue(db, 'partner-a', kodeIds);
    const server = new ServerDouble();
    server.latencyMs = 2;
    // One lock for both, as Web Locks are one per origin for the pages and the worker.
    const lock = memoryLock();
    const page = new SyncEngine({ db, transport: server.transport, session: new FakeSession(), lock });
    const sender = worker(db, server, lock, granted('partner-a'));

    // The page is sending the head of each vehicle when the browser fires the sync; the first of its
    // answers is lost, so that entry is left, with its vehicle's later ones, for the worker.
    server.holdAnswers();
    server.next('network');
    const paging = page.kick('online');
    await server.whenInFlight(3);
    const background = sender.run();
    await flush();
    server.answerHeld();
    await Promise.all([paging, background]);
    page.stop();
    await page.idle();

    const sends = new Map<string, number>();
    for (const key of server.keysSent()) sends.set(key, (sends.get(key) ?? 0) + 1);
    // Once each, but the one whose answer was lost: again under the same key, by the worker.
    expect([...sends.entries()].sort()).toEqual(keys.map((key) => [key, key === keys[0] ? 2 : 1]));
    expect(sender.tokens.length).toBeGreaterThan(0);
    expect(server.stored.size).toBe(keys.length);
    expect(byVehicle(server)).toEqual({
      KODE000001: [1000, 1000, 1001, 1002],
      KODE000002: [1003, 1004, 1005],
      KODE000003: [1006, 1007, 1008],
    });
    expect(await db.outbox.count()).toBe(0);
    expect(await db.history.count()).toBe(keys.length);
  });

  it('a page that took the lock first: the worker waits for it, then finds nothing to send, and never refreshes', async () => {
    const db = database();
    await signedIn(db, 'partner-a');
    const keys = await queue(db, 'partner-a', ['KODE000001', 'KODE000001']);
    const server = new ServerDouble();
    server.holdAnswers();
    const lock = memoryLock();
    const page = new SyncEngine({ db, transport: server.transport, session: new FakeSession(), lock });
    const paging = page.kick('online');
    await server.whenInFlight(1);
    const sender = worker(db, server, lock, granted('partner-a'));
    const background = sender.run();
    server.answerHeld();
    await Promise.all([paging, background]);
    page.stop();

    expect(server.keysSent()).toEqual(keys);
    expect(sender.refresh).not.toHaveBeenCalled();
  });

  it('refresh refused: nothing is sent, the entries wait for the next sign-in, and leave then', async () => {
    const db = database();
    await signedIn(db, 'partner-a');
    const keys = await queue(db, 'partner-a', ['KODE000001', 'KODE000002']);
    const server = new ServerDouble();
    const sender = worker(db, server, memoryLock(), refused);

    // Resolves: no retry of the sync can help, only a sign-in.
    await sender.run();

    expect(server.calls).toEqual([]);
    expect((await db.outbox.toArray()).map((row) => row.state)).toEqual(['waiting_for_sign_in', 'waiting_for_sign_in']);
    expect((await db.outbox.get(keys[0]!))?.lastError).toMatchObject({ code: 401 });

    // The mechanic signs in again on a page: the entries leave, once each.
    const page = new SyncEngine({ db, transport: server.transport, session: new FakeSession(), lock: memoryLock() });
    await page.resume('partner-a');
    await page.idle();
    page.stop();
    expect(server.keysSent()).toEqual(keys);
    expect(await db.outbox.count()).toBe(0);
  });

  it('server unreachable: nothing is lost, and the browser is told to fire the sync again', async () => {
    const db = database();
    await signedIn(db, 'partner-a');
    await queue(db, 'partner-a', ['KODE000001']);
    const server = new ServerDouble();
    const sender = worker(db, server, memoryLock(), networkFailure() as ApiResponse<AuthSession>);

    await expect(sender.run()).rejects.toThrow('left for a later try');

    expect(server.calls).toEqual([]);
    const [row] = await db.outbox.toArray();
    expect(row).toMatchObject({ state: 'queued', attempts: 1, lastError: { code: 0 } });
  });

  it('a 5xx answer leaves the entry for a later try and asks for one; a refusal does not', async () => {
    const db = database();
    await signedIn(db, 'partner-a');
    await queue(db, 'partner-a', ['KODE000001', 'ZZZZZZZZZ9']);
    const server = new ServerDouble().next({ code: 503, reason: 'unavailable' }, { code: 404, reason: 'not_found' });
    await expect(worker(db, server, memoryLock(), granted('partner-a')).run()).rejects.toThrow();
    expect((await db.outbox.toArray()).map((row) => row.state)).toEqual(['queued', 'refused']);

    const other = database();
    await signedIn(other, 'partner-a');
    await queue(other, 'partner-a', ['ZZZZZZZZZ9']);
    const refusing = new ServerDouble().next({ code: 404, reason: 'not_found' });
    await expect(worker(other, refusing, memoryLock(), granted('partner-a')).run()).resolves.toBeUndefined();
  });

  it('a 401 to a send after the refresh: one more refresh, refused, then the entries wait for a sign-in', async () => {
    const db = database();
    await signedIn(db, 'partner-a');
    await queue(db, 'partner-a', ['KODE000001', 'KODE000001']);
    const server = new ServerDouble().next(unauthorized());
    const refresh = vi.fn<() => Promise<ApiResponse<AuthSession>>>();
    refresh.mockResolvedValueOnce(granted('partner-a')).mockResolvedValueOnce(refused);
    let session: BackgroundSession | null = null;
    await sendInBackground({
      db,
      lock: memoryLock(),
      refresh,
      useSession: (current) => {
        session = current;
      },
      // As the API client does: a 401 asks the session to renew itself once, and repeats if it did.
      transport: async (row) => {
        const answer = await server.transport(row);
        if (answer.code !== 401 || !(await session!.renew())) return answer;
        return server.transport(row);
      },
      scheduler: new ManualScheduler(),
    });
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(server.calls).toHaveLength(1);
    expect((await db.outbox.toArray()).map((row) => row.state)).toEqual(['waiting_for_sign_in', 'waiting_for_sign_in']);
  });

  it('nobody signed in, or a sign-out still owed: no refresh, nothing sent', async () => {
    for (const owed of [false, true]) {
      const db = database();
      if (owed) {
        await signedIn(db, 'partner-a');
        await db.meta.put({ key: PENDING_SIGN_OUT_KEY, value: true });
      }
      await queue(db, 'partner-a', ['KODE000001']);
      const server = new ServerDouble();
      const sender = worker(db, server, memoryLock(), granted('partner-a'));
      await sender.run();
      expect(sender.refresh).not.toHaveBeenCalled();
      expect(server.calls).toEqual([]);
    }
  });

  it('a refresh that brings another partner’s session sends nothing of this partner under it', async () => {
    const db = database();
    await signedIn(db, 'partner-a');
    await queue(db, 'partner-a', ['KODE000001', 'KODE000002']);
    const server = new ServerDouble();
    await expect(worker(db, server, memoryLock(), granted('partner-b')).run()).rejects.toThrow();
    expect(server.calls).toEqual([]);
    expect(await db.outbox.count()).toBe(2);
  });
});

describe('background sync: the page asks for it', () => {
  function stubSyncManager(register: (tag: string) => Promise<void>) {
    const prototype = { sync: undefined };
    vi.stubGlobal('ServiceWorkerRegistration', { prototype });
    const serviceWorker = { getRegistration: vi.fn(async () => ({ sync: { register } })) };
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: serviceWorker });
  }

  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it('registers the outbox tag and keeps the language for the worker', async () => {
    const register = vi.fn(async () => undefined);
    stubSyncManager(register);
    const db = database();
    expect(backgroundSyncAvailable()).toBe(true);
    await requestBackgroundSync(db, 'en');
    expect(register).toHaveBeenCalledWith(OUTBOX_SYNC_TAG);
    expect((await db.meta.get(SYNC_LANGUAGE_KEY))?.value).toBe('en');
  });

  it('asks nothing where the browser has no Background Sync (Safari, Firefox)', async () => {
    expect(backgroundSyncAvailable()).toBe(false);
    await expect(requestBackgroundSync(database(), 'fr')).resolves.toBeUndefined();
  });

  it('the engine says entries wait at Insert and when a pass leaves some for a retry, not once all are stored', async () => {
    const db = database();
    const server = new ServerDouble().next('network');
    const onWaiting = vi.fn();
    const scheduler = new ManualScheduler();
    const page = new SyncEngine({
      db,
      transport: server.transport,
      session: new FakeSession(),
      lock: memoryLock(),
      scheduler,
      onWaiting,
    });
    server.holdAnswers();
    const queued = page.submit('partner-a', repair('KODE000001', 1000));
    // Written to the outbox: asked while the first attempt is still under way.
    await server.whenInFlight(1);
    expect(onWaiting).toHaveBeenCalledTimes(1);
    server.answerHeld();
    expect((await queued).kind).toBe('queued');
    // The network failure left it for a retry: asked again.
    expect(onWaiting).toHaveBeenCalledTimes(2);
    await scheduler.advance(60_000, () => page.idle());
    expect(await db.outbox.count()).toBe(0);
    expect(onWaiting).toHaveBeenCalledTimes(2);
    page.stop();
  });
});
