// @vitest-environment node
/**
 * (Node's Blob, as a browser's, survives IndexedDB's structured clone; jsdom's does not.)
 *
 * Odometer photos through the outbox's sender: the entry first, then its photo, PUT to the repair the
 * server stored, exactly once, retried like entries, following an entry sent again under a new key.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Photo } from '../../../../contract';
import type { PhotoRow } from '../../../../src/lib/db';
import type { TransportResult } from '../../../../src/lib/entries/classify';
import { SyncEngine } from '../../../../src/lib/entries/engine';
import { addToOutbox, discardRejected, replaceRejected, type NewPhoto } from '../../../../src/lib/entries/outbox';
import { nextPhotoDue } from '../../../../src/lib/entries/photo-sender';
import {
  FakeSession,
  freshDatabase,
  ManualScheduler,
  memoryLock,
  networkFailure,
  repair,
  sequentialUuids,
  ServerDouble,
  type Behaviour,
} from './support';

/** PUT /repairs/{id}/photo as the server does it: 201 once, 200 for the same bytes, 409 for others. */
class PhotoServerDouble {
  readonly stored = new Map<string, string>();
  readonly calls: { repairId: string; photoId: string }[] = [];
  readonly script: (Behaviour | 'exists')[] = [];

  transport = async (repairId: string, photo: PhotoRow): Promise<TransportResult<Photo>> => {
    this.calls.push({ repairId, photoId: photo.id });
    const behaviour = this.script.shift() ?? 'store';
    if (behaviour === 'network') return networkFailure();
    const bytes = await photo.blob.text();
    const record: Photo = {
      url: `/api/partner/repairs/${repairId}/photo`,
      bytes: photo.bytes,
      width: photo.width,
      height: photo.height,
    };
    if (behaviour === 'exists' || (this.stored.has(repairId) && this.stored.get(repairId) !== bytes)) {
      return { code: 409, status: 'error', error: { type: 'conflict', reason: 'photo_exists', message: 'exists' } };
    }
    if (typeof behaviour === 'object') {
      return {
        code: behaviour.code,
        status: 'error',
        error: { type: 'validation', reason: behaviour.reason ?? 'photo_invalid', message: 'no' },
      };
    }
    const again = this.stored.has(repairId);
    this.stored.set(repairId, bytes);
    return { code: again ? 200 : 201, status: 'success', data: record };
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const PHOTO: NewPhoto = { blob: new Blob(['the odometer']), type: 'image/webp', width: 1600, height: 1200 };

function setup() {
  const db = freshDatabase();
  const clock = new ManualScheduler();
  const server = new ServerDouble();
  const photos = new PhotoServerDouble();
  const session = new FakeSession();
  server.signedIn = session.partnerId;
  const uuid = sequentialUuids();
  const engine = new SyncEngine({
    db,
    transport: server.transport,
    photoTransport: photos.transport,
    session,
    lock: memoryLock(),
    scheduler: clock,
    random: () => 0.5,
    uuid,
  });
  cleanups.push(async () => {
    engine.stop();
    await engine.idle();
    db.close();
    await db.delete();
  });
  /** Insert with a photo, and one pass. */
  const insert = async (odometer: number, photo: NewPhoto | null = PHOTO) => {
    const entry = await addToOutbox(db, {
      key: uuid(),
      partnerId: 'partner-a',
      input: repair('KODE000001', odometer),
      recordedAt: new Date(clock.now()).toISOString(),
      photo: photo ?? undefined,
    });
    await engine.kick('insert');
    return entry;
  };
  return { db, clock, server, photos, engine, insert };
}

describe('odometer photos through the sender', () => {
  it('sends the entry, then its photo to the repair stored; then the photo leaves the tablet and the history shows it', async () => {
    const { db, server, photos, insert } = setup();
    const entry = await insert(120_000);
    expect(server.keysSent()).toEqual([entry.key]);
    const [record] = await db.history.toArray();
    expect(photos.calls).toEqual([{ repairId: record?.id, photoId: entry.key }]);
    expect(await db.photos.count()).toBe(0);
    expect((await db.history.get(record?.id ?? ''))?.photo).toMatchObject({ width: 1600, height: 1200 });
  });

  it('an entry without a photo sends no photo', async () => {
    const { photos, insert } = setup();
    await insert(120_000, null);
    expect(photos.calls).toEqual([]);
  });

  it('while the entry waits (no network), its photo waits with it, and both go once the network is back', async () => {
    const { db, server, photos, engine, insert } = setup();
    server.next('network');
    const entry = await insert(120_000);
    expect(photos.calls).toEqual([]);
    expect(await db.photos.get(entry.key)).toMatchObject({ state: 'waiting', entryKey: entry.key });
    await engine.kick('online');
    expect(photos.calls).toHaveLength(1);
    expect(await db.photos.count()).toBe(0);
  });

  it('the entry stored but its photo found no network: the photo alone goes later, once', async () => {
    const { db, server, photos, engine, clock, insert } = setup();
    photos.script.push('network');
    await insert(120_000);
    expect(server.calls).toHaveLength(1);
    expect(photos.calls).toHaveLength(1);
    const waiting = await db.photos.toArray();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]?.nextAttemptAt).toBeGreaterThan(clock.now());
    expect(await nextPhotoDue(db, 'partner-a')).toBe(waiting[0]?.nextAttemptAt);
    await clock.advance(10 * 60_000, () => engine.idle());
    expect(server.calls).toHaveLength(1);
    expect(photos.calls).toHaveLength(2);
    expect(photos.stored.size).toBe(1);
    expect(await db.photos.count()).toBe(0);
  });

  it('while an entry waits for a sign-in, a stored entry’s photo waits too, and goes after the sign-in', async () => {
    const { db, server, photos, engine, clock, insert } = setup();
    photos.script.push('network');
    await insert(120_000);
    expect(photos.calls).toHaveLength(1);
    // The session is gone: the next entry's 401 parks the outbox until the partner signs in again.
    server.next({ code: 401, reason: 'unauthorized', message: 'Session expirée' });
    await insert(121_000, null);
    expect((await db.outbox.toArray()).map((row) => row.state)).toEqual(['waiting_for_sign_in']);
    await engine.kick('online');
    await clock.advance(10 * 60_000, () => engine.idle());
    expect(photos.calls).toHaveLength(1);
    expect(await db.photos.count()).toBe(1);

    await engine.resume('partner-a');
    expect(photos.calls).toHaveLength(2);
    expect(await db.photos.count()).toBe(0);
  });

  it('409, another photo already there: the first one stays the evidence, this one is dropped', async () => {
    const { db, photos, insert } = setup();
    photos.script.push('exists');
    await insert(120_000);
    expect(photos.calls).toHaveLength(1);
    expect(await db.photos.count()).toBe(0);
  });

  it('415 refused: kept on the tablet, refused with its reason, never sent again', async () => {
    const { db, photos, engine, insert } = setup();
    photos.script.push({ code: 415, reason: 'photo_invalid' });
    const entry = await insert(120_000);
    expect(await db.photos.get(entry.key)).toMatchObject({
      state: 'refused',
      lastError: { code: 415, reason: 'photo_invalid' },
    });
    await engine.kick('manual');
    expect(photos.calls).toHaveLength(1);
  });

  it('a refused entry corrected under a new key takes its photo along; a discarded one drops it', async () => {
    const { db, server, photos, engine, insert } = setup();
    server.next({ code: 422, reason: 'invalid_request' });
    const refused = await insert(120_000);
    const corrected = await replaceRejected(db, {
      key: refused.key,
      newKey: 'corrected-key',
      partnerId: 'partner-a',
      input: repair('KODE000001', 121_000),
    });
    expect(await db.photos.get(refused.key)).toMatchObject({ entryKey: corrected?.key });
    await engine.kick('manual');
    expect(photos.calls).toEqual([{ repairId: expect.any(String), photoId: refused.key }]);

    server.next({ code: 422, reason: 'invalid_request' });
    const dropped = await insert(122_000);
    expect(await discardRejected(db, dropped.key, 'partner-a')).toBe(true);
    expect(await db.photos.get(dropped.key)).toBeUndefined();
  });

  it('a full tablet keeps the entry without its photo, and says so: a photo never costs an entry', async () => {
    const { db, server, engine } = setup();
    const full = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    const add = vi.spyOn(db.photos, 'add').mockRejectedValue(full);
    const outcome = await engine.submit('partner-a', repair('KODE000001', 120_000), undefined, PHOTO);
    expect(add).toHaveBeenCalled();
    expect(outcome).toMatchObject({ kind: 'stored', photoLeftOut: true });
    expect(server.calls).toHaveLength(1);
    expect(await db.photos.count()).toBe(0);
  });

  it('any other failure to write the photo fails the Insert whole: nothing half written', async () => {
    const { db, engine } = setup();
    vi.spyOn(db.photos, 'add').mockRejectedValue(new Error('disk on fire'));
    await expect(engine.submit('partner-a', repair('KODE000001', 120_000), undefined, PHOTO)).rejects.toThrow(
      'disk on fire',
    );
    expect(await db.outbox.count()).toBe(0);
  });
});
