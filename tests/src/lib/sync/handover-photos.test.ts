// @vitest-environment node
/**
 * (Node's Blob survives IndexedDB's structured clone, as a browser's does; jsdom's does not.)
 *
 * The hand-over file carries the entries' odometer photos (docs/ARCHITECTURE.md#the-hand-over-file):
 * sealed with the rest, so an edited photo is refused like an edited reading; read back byte for byte;
 * imported beside its entry under the same key, once however often the file is imported.
 */
import { describe, expect, it } from 'vitest';
import type { OutboxEntry, PhotoRow } from '../../../../src/lib/db';
import { buildHandover, readHandover } from '../../../../src/lib/sync/handover';
import { importHandedOver, type HandedOverEntry } from '../../../../src/lib/sync/outbox';
import { sealOf } from '../../../../src/lib/sync/seal';
import { freshDatabase, repair } from './support';

const PARTNER = 'partner-a';
const KEY = Buffer.alloc(32, 7).toString('base64url');
const ENTRY_KEY = '0b1e0000-0000-4000-8000-000000000001';
const BYTES = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 0, 0x57, 0x45, 0x42, 0x50, 255, 254]);

const entry: OutboxEntry = {
  key: ENTRY_KEY,
  partnerId: PARTNER,
  entry: { ...repair('KODE000001', 128_450), recorded_at: '2026-11-28T08:15:00.000Z' },
  state: 'pending',
  seq: 1,
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  createdAt: '2026-11-28T08:15:00.000Z',
};

const photo: PhotoRow = {
  id: ENTRY_KEY,
  entryKey: ENTRY_KEY,
  partnerId: PARTNER,
  blob: new Blob([BYTES], { type: 'image/webp' }),
  type: 'image/webp',
  bytes: BYTES.length,
  width: 1600,
  height: 900,
  state: 'waiting',
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  createdAt: entry.createdAt,
};

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
  const entries = await read(file);
  if (typeof entries === 'string') throw new Error(`refused: ${entries}`);
  return entries;
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
