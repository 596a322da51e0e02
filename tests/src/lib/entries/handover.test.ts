/**
 * The hand-over file's seal (docs/ARCHITECTURE.md#the-hand-over-file): an HMAC-SHA256 under the
 * partner's hand-over key over the file's canonical form, so a file changed after its export is
 * refused on import, whatever was changed; and the file carries codes, never a browser's words.
 */
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../../../src/lib/db';
import { buildHandover, HANDOVER_VERSION, readHandover } from '../../../../src/lib/entries/handover';
import { sealOf } from '../../../../src/lib/entries/seal';

const PARTNER = 'partner-a';
/** Two partners' keys as the server hands them out at sign-in: 32 bytes in base64url. */
const KEY = Buffer.alloc(32, 7).toString('base64url');
const OTHER_KEY = Buffer.alloc(32, 9).toString('base64url');
const EXPORTED_AT = new Date('2026-11-23T09:30:00.000Z');

function row(key: string, seq: number, odometer: number, overrides: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    key,
    partnerId: PARTNER,
    entry: {
      kode_id: `KODE00000${seq}`,
      odometer,
      repair_type_id: 'oil_change',
      consented: true,
      note: '',
      recorded_at: `2026-11-2${seq}T08:15:00.000Z`,
    },
    state: 'queued',
    seq,
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: `2026-11-2${seq}T08:15:00.000Z`,
    ...overrides,
  };
}

const FIRST = '0b1e0000-0000-4000-8000-000000000001';
const SECOND = '0b1e0000-0000-4000-8000-000000000002';
const rows = [row(FIRST, 1, 120_500), row(SECOND, 2, 87_000)];

/** The file as a mechanic's text editor would leave it: parsed, changed, written back. */
type FileBody = Record<string, unknown> & { entries: Record<string, unknown>[] };

async function exported(key = KEY, from: readonly OutboxEntry[] = rows): Promise<FileBody> {
  return JSON.parse(JSON.stringify(await buildHandover(PARTNER, from, EXPORTED_AT, key))) as FileBody;
}

const read = (file: unknown, key = KEY) => readHandover(JSON.stringify(file, null, 2), PARTNER, key);

/** Every object's keys in reverse order, recursively: the same content, another serialization. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([name, inner]) => [name, reversedKeys(inner)]),
  );
}

describe('a sealed hand-over file', () => {
  it('is version 2 and carries a seal; it reads back whole on a tablet of the same partner', async () => {
    const file = await exported();
    expect(HANDOVER_VERSION).toBe(2);
    expect(file.version).toBe(2);
    expect(file.seal).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await read(file)).toEqual({
      entries: [
        { key: FIRST, entry: rows[0]!.entry, rejected: false, lastError: null },
        { key: SECOND, entry: rows[1]!.entry, rejected: false, lastError: null },
      ],
      sentEntriesPhotos: [],
    });
  });

  it('reads back whatever the order of its keys and its whitespace', async () => {
    const file = await exported();
    expect(await readHandover(JSON.stringify(reversedKeys(file)), PARTNER, KEY)).toMatchObject({
      entries: [{ key: FIRST }, { key: SECOND }],
    });
  });

  it.each([
    { what: 'an odometer raised by 1,000 km, its key kept', edit: (file: FileBody) => bump(file, 'odometer', 1000) },
    { what: 'a KODE ID', edit: (file: FileBody) => set(file, 0, 'kode_id', 'KODE000009') },
    { what: 'a recorded_at', edit: (file: FileBody) => set(file, 1, 'recorded_at', '2026-11-21T08:15:00.000Z') },
    { what: 'a state', edit: (file: FileBody) => set(file, 0, 'state', 'rejected') },
    { what: 'an entry removed', edit: (file: FileBody) => ({ ...file, entries: file.entries.slice(1) }) },
    { what: 'an entry added', edit: (file: FileBody) => ({ ...file, entries: [...file.entries, file.entries[0]] }) },
    { what: 'a field added', edit: (file: FileBody) => set(file, 0, 'note', 'ajouté') },
    { what: 'the export date', edit: (file: FileBody) => ({ ...file, exported_at: '2026-11-24T09:30:00.000Z' }) },
    { what: 'the seal removed', edit: ({ seal: _seal, ...file }: FileBody) => file },
    { what: 'the seal garbled', edit: (file: FileBody) => ({ ...file, seal: 'A'.repeat(43) }) },
    { what: 'the seal not a string', edit: (file: FileBody) => ({ ...file, seal: { value: file.seal } }) },
  ])('is refused as changed after its export: $what', async ({ edit }) => {
    expect(await read(edit(await exported()))).toBe('tampered');
  });

  it("is refused, named so, when sealed under another of the partner's keys (a password changed since)", async () => {
    // Exported before the change and imported after it, or the other way round.
    expect(await read(await exported(OTHER_KEY))).toBe('other-key');
    expect(await read(await exported(KEY), OTHER_KEY)).toBe('other-key');
  });

  it('is refused as changed when it names our key but is sealed under another (forged)', async () => {
    const forged = await exported(OTHER_KEY);
    const ours = await exported(KEY);
    expect(forged.key_id).not.toBe(ours.key_id);
    expect(await read({ ...forged, key_id: ours.key_id })).toBe('tampered');
  });

  it('reads a file exported before files named their key, and refuses it as changed under another key', async () => {
    const { key_id: _keyId, seal: _seal, ...content } = await exported();
    const older = { ...content, seal: await sealOf(content, KEY) };
    expect(await read(older)).toMatchObject({ entries: [{ key: FIRST }, { key: SECOND }] });
    expect(await read(older, OTHER_KEY)).toBe('tampered');
  });

  it('names a version-1 file (no seal, exported before the seal existed) as such, not as damaged', async () => {
    const { seal: _seal, ...file } = await exported();
    expect(await read({ ...file, version: 1 })).toBe('unsealed');
  });

  it("still names another partner's file as such", async () => {
    expect(await read({ ...(await exported()), partner_id: 'partner-b' })).toBe('other-partner');
  });
});

describe('what a file says of an entry’s state', () => {
  it('writes an entry being sent at the export as waiting: from the file, another tablet sends it', async () => {
    const file = await exported(KEY, [
      row(FIRST, 1, 120_500, { state: 'sending' }),
      row(SECOND, 2, 87_000, { state: 'waiting_for_sign_in' }),
    ]);
    expect(file.entries.map((entry) => entry.state)).toEqual(['pending', 'waiting_for_sign_in']);
    expect(await read(file)).toMatchObject({
      entries: [expect.objectContaining({ key: FIRST, rejected: false }), expect.objectContaining({ key: SECOND })],
    });
  });
});

describe('what a file says of an entry’s last failure', () => {
  it('the code and the reason code only: never the browser’s or the server’s words', async () => {
    const file = await exported(KEY, [
      row(FIRST, 1, 120_500, { lastError: { code: 0, message: 'Failed to fetch' } }),
      row(SECOND, 2, 12, {
        state: 'refused',
        lastError: {
          code: 400,
          reason: 'odometer_invalid',
          message: 'Veuillez saisir un kilometrage valide',
          fields: { odometer: 'Veuillez saisir un kilometrage valide' },
        },
      }),
    ]);
    const text = JSON.stringify(file);
    expect(text).not.toContain('Failed to fetch');
    expect(text).not.toContain('Veuillez');
    expect(file.entries.map((entry) => entry.last_error)).toEqual([
      { code: 0 },
      { code: 400, reason: 'odometer_invalid' },
    ]);

    // The importing tablet words them itself, in its own language.
    expect(await read(file)).toMatchObject({
      entries: [
        expect.objectContaining({ key: FIRST, rejected: false, lastError: { code: 0, message: '' } }),
        expect.objectContaining({
          key: SECOND,
          rejected: true,
          lastError: { code: 400, reason: 'odometer_invalid', message: '' },
        }),
      ],
    });
  });
});

function set(file: FileBody, index: number, field: string, value: unknown): FileBody {
  const entries = file.entries.map((entry, at) => (at === index ? { ...entry, [field]: value } : entry));
  return { ...file, entries };
}

function bump(file: FileBody, field: string, by: number): FileBody {
  return set(file, 0, field, (file.entries[0]![field] as number) + by);
}
