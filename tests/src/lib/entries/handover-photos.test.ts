// @vitest-environment node
/**
 * (Node's Blob survives IndexedDB's structured clone, as a browser's does; jsdom's does not.)
 *
 * The hand-over file carries the entries' odometer photos (docs/ARCHITECTURE.md#the-hand-over-file):
 * sealed with the rest, so an edited photo is refused like an edited reading; read back byte for byte;
 * imported beside its entry under the same key, once however often the file is imported. A photo
 * whose entry was sent already travels alone, with its repair, and goes to that repair from the
 * importing tablet.
 */
import { describe, expect, it } from 'vitest';
import type { OutboxEntry, PhotoRow } from '../../../../src/lib/db';
import { buildHandover, readHandover } from '../../../../src/lib/entries/handover';
import { nextPhotoDue, sendDuePhotos } from '../../../../src/lib/entries/photo-sender';
import { importHandedOver, type HandedOverEntry } from '../../../../src/lib/entries/outbox-handover';
import { sealOf } from '../../../../src/lib/entries/seal';
import { photoRow } from '../../../support/photos';
import { freshDatabase, repair } from './support';

const PARTNER = 'partner-a';
const KEY = Buffer.alloc(32, 7).toString('base64url');
const ENTRY_KEY = '0b1e0000-0000-4000-8000-000000000001';
const BYTES = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 0, 0x57, 0x45, 0x42, 0x50, 255, 254]);

const entry: OutboxEntry = {
  key: ENTRY_KEY,
  partnerId: PARTNER,
  entry: { ...repair('KODE000001', 128_450), recorded_at: '2026-11-28T08:15:00.000Z' },
  state: 'queued',
  seq: 1,
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  createdAt: '2026-11-28T08:15:00.000Z',
};

const photo: PhotoRow = { ...photoRow(ENTRY_KEY, PARTNER, { bytes: BYTES }), createdAt: entry.createdAt };

type FileBody = Record<string, unknown> & {
  entries: (Record<string, unknown> & { photo?: Record<string, unknown> })[];
};

async function exported(): Promise<FileBody> {
  const file = await buildHandover(
    PARTNER,
    [entry],
    new Date('2026-11-28T09:00:00.000Z'),
    KEY,
    new Map([[ENTRY_KEY, photo]]),
  );
  return JSON.parse(JSON.stringify(file)) as FileBody;
}

const read = (file: unknown) => readHandover(JSON.stringify(file), PARTNER, KEY);

async function readEntries(file: unknown): Promise<HandedOverEntry[]> {
  const read_ = await read(file);
  if (typeof read_ === 'string') throw new Error(`refused: ${read_}`);
  return read_.entries;
}

describe('photos in the hand-over file', () => {
  it('carries an entry’s photo in base64 and reads it back byte for byte', async () => {
    const file = await exported();
    expect(file.entries[0]?.photo).toEqual({
      type: 'image/webp',
      width: 1600,
      height: 900,
      data: Buffer.from(BYTES).toString('base64'),
    });
    const [handed] = await readEntries(file);
    expect(handed?.photo).toMatchObject({ type: 'image/webp', width: 1600, height: 900 });
    expect(new Uint8Array(await handed!.photo!.blob.arrayBuffer())).toEqual(BYTES);
  });

  it('refuses a file whose photo was changed or removed after its export', async () => {
    const changed = await exported();
    changed.entries[0]!.photo!.data = Buffer.from([...BYTES].reverse()).toString('base64');
    expect(await read(changed)).toBe('tampered');
    const removed = await exported();
    delete removed.entries[0]!.photo;
    expect(await read(removed)).toBe('tampered');
  });

  it('refuses, even sealed, a photo of another type or beyond the sizes the tablet makes', async () => {
    for (const bad of [{ type: 'image/png' }, { width: 1601 }, { data: 'not base64!' }]) {
      const file = await exported();
      file.entries[0]!.photo = { ...file.entries[0]!.photo, ...bad };
      const { seal: _seal, ...content } = file;
      expect(await read({ ...content, seal: await sealOf(content, KEY) })).toBe('damaged');
    }
  });

  it('imports the photo beside its entry, once however often the file is imported', async () => {
    const db = freshDatabase();
    const entries = await readEntries(await exported());
    expect(await importHandedOver(db, PARTNER, entries, '2026-11-28T10:00:00.000Z')).toMatchObject({ added: 1 });
    expect(await importHandedOver(db, PARTNER, entries, '2026-11-28T10:05:00.000Z')).toMatchObject({
      added: 0,
      present: 1,
    });
    const photos = await db.photos.toArray();
    expect(photos).toHaveLength(1);
    expect(photos[0]).toMatchObject({
      id: ENTRY_KEY,
      entryKey: ENTRY_KEY,
      partnerId: PARTNER,
      state: 'waiting',
      bytes: BYTES.length,
    });
    expect(new Uint8Array(await photos[0]!.blob.arrayBuffer())).toEqual(BYTES);
    db.close();
    await db.delete();
  });
});

describe('a photo whose entry the server holds already', () => {
  const REPAIR = '5e170000-0000-4000-8000-0000000000aa';

  async function exportedAlone(): Promise<FileBody> {
    const file = await buildHandover(PARTNER, [], new Date('2026-11-28T09:00:00.000Z'), KEY, new Map(), [
      { row: photo, repairId: REPAIR },
    ]);
    return JSON.parse(JSON.stringify(file)) as FileBody;
  }

  it('travels alone with its repair, sealed with the rest', async () => {
    const file = await exportedAlone();
    expect(file.entries).toEqual([]);
    expect(file.sent_entries_photos).toEqual([
      {
        idempotency_key: ENTRY_KEY,
        repair_id: REPAIR,
        photo: { type: 'image/webp', width: 1600, height: 900, data: Buffer.from(BYTES).toString('base64') },
      },
    ]);
    const moved = {
      ...file,
      sent_entries_photos: [
        { ...(file.sent_entries_photos as object[])[0], repair_id: '5e170000-0000-4000-8000-0000000000bb' },
      ],
    };
    expect(await read(moved)).toBe('tampered');
  });

  it('is imported once, and the importing tablet sends it to that repair without knowing the entry', async () => {
    const db = freshDatabase();
    const handed = await read(await exportedAlone());
    if (typeof handed === 'string') throw new Error(handed);
    expect(
      await importHandedOver(db, PARTNER, handed.entries, '2026-11-28T10:00:00.000Z', handed.sentEntriesPhotos),
    ).toMatchObject({
      added: 0,
      photosAdded: 1,
    });
    expect(
      await importHandedOver(db, PARTNER, handed.entries, '2026-11-28T10:05:00.000Z', handed.sentEntriesPhotos),
    ).toMatchObject({
      photosAdded: 0,
    });
    expect(await db.photos.toArray()).toMatchObject([
      { id: ENTRY_KEY, entryKey: ENTRY_KEY, repairId: REPAIR, state: 'waiting' },
    ]);
    expect(await nextPhotoDue(db, PARTNER)).toBe(0);

    const sent: string[] = [];
    const round = await sendDuePhotos(db, PARTNER, {
      transport: async (repairId, row) => {
        sent.push(repairId);
        return {
          code: 201,
          status: 'success',
          data: { url: `/api/partner/repairs/${repairId}/photo`, bytes: row.bytes, width: 1600, height: 900 },
        };
      },
      now: () => 0,
      random: () => 0.5,
      force: false,
      mayGoOn: async () => true,
    });
    expect(round).toBe('done');
    expect(sent).toEqual([REPAIR]);
    expect(await db.photos.count()).toBe(0);
    db.close();
    await db.delete();
  });
});
