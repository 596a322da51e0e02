/**
 * Version 7 of the tablet's database stores an entry's state in the words of its life. A tablet updated
 * with entries and photos still queued keeps every one of them, and sends each once after the update.
 */
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type { Photo } from '../../../../contract';
import { DB_VERSION, PortalDatabase, type PhotoRow } from '../../../../src/lib/db';
import type { TransportResult } from '../../../../src/lib/entries/classify';
import { SyncEngine } from '../../../../src/lib/entries/engine';
import { FakeSession, ManualScheduler, memoryLock, olderEntryBody, sequentialUuids, ServerDouble } from './support';

/** The stores exactly as version 6 of the app declared them (every version before it folded in). */
const V6_STORES = {
  accounts: 'id',
  meta: 'key',
  repairTypes: 'id, position',
  vehicles: '[partnerId+kode_id], partnerId',
  readings: '[partnerId+kode_id], partnerId',
  history: 'id, partnerId, [partnerId+recorded_at], [partnerId+vehicle.kode_id], idempotency_key',
  photos: 'id, partnerId, entryKey',
  outbox:
    'key, partnerId, state, seq, [partnerId+seq], [partnerId+state], [partnerId+entry.kode_id], ' +
    '[partnerId+entry.recorded_at], [partnerId+entry.corrects]',
};

const PARTNER = 'partner-a';
const key = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
const CONFLICT = { code: 422, reason: 'idempotency_conflict', message: '' };
const NOT_FOUND = { code: 404, reason: 'vehicle_not_found', message: 'Véhicule introuvable' };

/** An outbox row as version 6 wrote it, in its four words. */
function v6Entry(n: number, state: string, kodeId: string, lastError: object | null = null) {
  return {
    key: key(n),
    partnerId: PARTNER,
    entry: olderEntryBody(n, kodeId, `2026-11-0${n}T10:00:00.000Z`),
    state,
    seq: n,
    attempts: lastError ? 1 : 0,
    nextAttemptAt: 0,
    lastError,
    createdAt: `2026-11-0${n}T10:00:00.000Z`,
  };
}

const V6_ROWS = [
  v6Entry(1, 'pending', 'KODE000001'),
  v6Entry(2, 'pending', 'KODE000001'),
  // A tab that was sending when the update came: the server may or may not have it.
  v6Entry(3, 'sending', 'KODE000002'),
  v6Entry(4, 'rejected', 'KODE000003', NOT_FOUND),
  v6Entry(5, 'rejected', 'KODE000004', CONFLICT),
  v6Entry(6, 'waiting_for_sign_in', 'KODE000005', { code: 401, reason: 'session_revoked', message: '' }),
];

/** The odometer photo taken with the first entry, waiting for its entry to be stored. */
const V6_PHOTO: PhotoRow = {
  id: key(1),
  entryKey: key(1),
  partnerId: PARTNER,
  blob: new Blob(['the odometer']),
  type: 'image/webp',
  bytes: 12,
  width: 1600,
  height: 1200,
  state: 'waiting',
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  createdAt: '2026-11-01T10:00:00.000Z',
};

/** A database as version 6 of the app left it on a tablet. */
async function tabletOfVersion6(): Promise<string> {
  const name = `upgrade-7-${Math.random().toString(36).slice(2)}`;
  const old = new Dexie(name);
  old.version(6).stores(V6_STORES);
  await old.open();
  await old.table('outbox').bulkAdd(V6_ROWS);
  await old.table('photos').add(V6_PHOTO);
  await old.table('meta').put({ key: 'outbox-seq', value: 6 });
  old.close();
  return name;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('the update to version 7', () => {
  it('stores each entry’s state in the words of its life, every field and photo kept', async () => {
    const db = new PortalDatabase(await tabletOfVersion6());
    cleanups.push(() => db.delete());
    await db.open();
    expect(db.verno).toBe(DB_VERSION);
    expect(DB_VERSION).toBe(7);
    const rows = await db.outbox.orderBy('seq').toArray();
    expect(rows.map((row) => [row.key, row.state])).toEqual([
      [key(1), 'queued'],
      [key(2), 'queued'],
      [key(3), 'sending'],
      [key(4), 'refused'],
      [key(5), 'in_conflict'],
      [key(6), 'waiting_for_sign_in'],
    ]);
    expect(rows.map(({ state: _state, ...rest }) => rest)).toEqual(V6_ROWS.map(({ state: _state, ...rest }) => rest));
    expect(await db.photos.get(key(1))).toMatchObject({ entryKey: key(1), state: 'waiting' });
    // The indexes the sender and the header count on find the new words.
    expect(await db.outbox.where('[partnerId+state]').equals([PARTNER, 'queued']).count()).toBe(2);
  });

  it('sends every entry that was to be sent once, in its vehicle’s order, and its photo after it', async () => {
    const db = new PortalDatabase(await tabletOfVersion6());
    const server = new ServerDouble();
    const session = new FakeSession(PARTNER);
    server.signedIn = session.partnerId;
    const photos: string[] = [];
    const photoTransport = async (repairId: string, photo: PhotoRow): Promise<TransportResult<Photo>> => {
      photos.push(`${repairId} ${photo.id}`);
      return {
        code: 201,
        status: 'success',
        data: { url: `/api/partner/repairs/${repairId}/photo`, bytes: photo.bytes, width: 1600, height: 1200 },
      };
    };
    const engine = new SyncEngine({
      db,
      transport: server.transport,
      photoTransport,
      session,
      lock: memoryLock(),
      scheduler: new ManualScheduler(),
      random: () => 0.5,
      uuid: sequentialUuids(),
    });
    cleanups.push(async () => {
      engine.stop();
      await engine.idle();
      db.close();
      await db.delete();
    });

    // The partner signs in after the update: the entries waiting for a sign-in go too.
    await engine.resume(PARTNER);
    await engine.idle();
    await engine.kick('manual');
    await engine.idle();

    // Each once: four requests for four entries.
    expect([...server.keysSent()].sort()).toEqual([key(1), key(2), key(3), key(6)]);
    // KODE000001's two readings reached the server in the order the mechanic entered them.
    const sent = server.keysSent();
    expect(sent.indexOf(key(1))).toBeLessThan(sent.indexOf(key(2)));
    expect(photos).toEqual([`${server.stored.get(`${PARTNER}:${key(1)}`)?.record.id} ${key(1)}`]);
    // What the server refused or holds otherwise stays for the mechanic, unsent.
    expect((await db.outbox.orderBy('seq').toArray()).map((row) => [row.key, row.state])).toEqual([
      [key(4), 'refused'],
      [key(5), 'in_conflict'],
    ]);
    expect(await db.history.count()).toBe(4);
  });
});
