/**
 * The hand-over file (docs/ARCHITECTURE.md#the-hand-over-file): a partner's unsent and refused entries,
 * exported from one tablet and imported on another signed in as the same partner, with their original
 * Idempotency-Keys and recorded_at, so the server still stores each entry once. Sealed under the
 * partner's hand-over key (seal.ts): a file changed after its export is refused whole. Loaded on demand
 * (the sending panel, the banner's Export): it carries the contract's schemas and the seal's code.
 */
import * as z from 'zod/mini';
import {
  IDEMPOTENCY_KEY_PATTERN,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_SIDE_PX,
  PHOTO_TYPES,
  repairEntry,
  type RepairType,
} from '../../../contract';
import { db, type OutboxEntry, type OutboxError, type PhotoRow } from '../db';
import { getSession } from '../session';
import { getSyncEngine } from './sender';
import { type NewPhoto } from './outbox';
import { partnerOutbox } from './outbox-queries';
import { importHandedOver, type HandedOverEntry, type HandedOverPhoto, type HandOverResult } from './outbox-handover';
import { fromBase64, keyIdOf, sealHolds, sealingAvailable, sealOf, toBase64 } from './seal';
import { photosWithRepair, type PhotoWithRepair } from './photo-sender';

export const HANDOVER_FORMAT = 'kode-garage-outbox' as const;
/** 2: sealed. Version 1 (before the seal) is refused: nothing proves it is as it was exported. */
export const HANDOVER_VERSION = 2 as const;
const UNSEALED_VERSION = 1;

/** 'sending' is written as 'pending' (fileState) but still read: files exported before that carry it. */
const OUTBOX_STATES = ['pending', 'sending', 'waiting_for_sign_in', 'rejected'] as const;

/** A side of a photo, in pixels, as the tablet makes them (src/lib/photos/encode.ts). */
const photoSide = z.number().check(z.int(), z.minimum(1), z.maximum(PHOTO_MAX_SIDE_PX));

/**
 * An entry's odometer photo, its bytes in base64 (at most PHOTO_MAX_BYTES once decoded: 4 characters
 * for 3 bytes). The server checks the bytes again when the photo is sent.
 */
const handoverPhoto = z.object({
  type: z.enum(PHOTO_TYPES),
  width: photoSide,
  height: photoSide,
  data: z.base64().check(z.maxLength(Math.ceil(PHOTO_MAX_BYTES / 3) * 4)),
});

/**
 * One entry of the file: the body of POST /repairs (the contract's rules, once) plus its key, its state
 * and its last failure as codes: the HTTP status and the API's reason, never words (a browser's
 * "Failed to fetch", a server's sentence in the exporting tablet's language); and its photo, if any.
 */
const handoverEntry = z.extend(repairEntry, {
  idempotency_key: z.string().check(z.regex(IDEMPOTENCY_KEY_PATTERN)),
  state: z.enum(OUTBOX_STATES),
  last_error: z.optional(
    z.nullable(
      z.object({
        code: z.number(),
        reason: z.optional(z.string().check(z.regex(/^[a-z_]{1,64}$/))),
      }),
    ),
  ),
  photo: z.optional(handoverPhoto),
});

/**
 * A photo whose entry the exporting tablet had sent already (the server holds the reading, not yet the
 * photo): it travels on its own, with the repair it belongs to.
 */
const handoverSentEntryPhoto = z.object({
  idempotency_key: z.string().check(z.regex(IDEMPOTENCY_KEY_PATTERN)),
  repair_id: z.guid(),
  photo: handoverPhoto,
});

/** Read first, alone: a file of another format, version or partner is named as such, not as damaged. */
const handoverHeader = z.looseObject({ format: z.string(), version: z.number() });
const handoverOwner = z.looseObject({ partner_id: z.string(), key_id: z.optional(z.unknown()) });

const handoverFile = z.object({
  format: z.literal(HANDOVER_FORMAT),
  version: z.literal(HANDOVER_VERSION),
  partner_id: z.string(),
  /** The key it is sealed under (seal.ts keyIdOf); absent from files exported before key generations. */
  key_id: z.optional(z.string()),
  exported_at: z.iso.datetime({ offset: true }),
  entries: z.array(handoverEntry),
  /** Absent when there are none, so a file without them reads as before. */
  sent_entries_photos: z.optional(z.array(handoverSentEntryPhoto)),
  seal: z.string(),
});

export type HandoverFile = z.input<typeof handoverFile>;
type HandoverFileEntry = HandoverFile['entries'][number];

/** Why a file was refused; nothing was imported. */
export type HandoverRefusal =
  | 'not-json'
  | 'other-format'
  /** Version 1, exported before the seal: it cannot be told from an edited file. */
  | 'unsealed'
  | 'other-partner'
  /** Changed after its export, or sealed under another key: the seal does not hold. */
  | 'tampered'
  /**
   * Sealed under another key of this partner: the password was changed or reset between its export and
   * now, which gives the partner's tablets a new key (at their next sign-in or refresh).
   */
  | 'other-key'
  | 'damaged'
  | 'signed-out'
  /** This tablet has no hand-over key yet: no sign-in with the network since the seal existed. */
  | 'no-key'
  /** No WebCrypto here (a page served over plain http to another machine). */
  | 'unsupported';

export type HandoverImport =
  | { kind: 'imported'; result: HandOverResult; repairTypes: RepairType[] }
  | { kind: 'refused'; reason: HandoverRefusal };

export type HandoverExport =
  | { kind: 'exported'; count: number; photos: number }
  | { kind: 'refused'; reason: Extract<HandoverRefusal, 'no-key' | 'unsupported'> };

/** What a file hands over: entries (with their photos), and photos of entries already sent. */
export interface HandedOver {
  entries: HandedOverEntry[];
  sentEntriesPhotos: HandedOverPhoto[];
}

/** A photo on this tablet whose entry the server holds, with the repair it belongs to. */
export type SentEntryPhoto = PhotoWithRepair;

/** Codes only (see handoverEntry). */
function fileError(error: OutboxError): NonNullable<HandoverFileEntry['last_error']> {
  return error.reason ? { code: error.code, reason: error.reason } : { code: error.code };
}

async function filePhoto(photo: PhotoRow) {
  return {
    type: photo.type,
    width: photo.width,
    height: photo.height,
    data: toBase64(new Uint8Array(await photo.blob.arrayBuffer())),
  };
}

/**
 * The file's word for an entry's state. The file keeps the words of its format (version 2), which
 * tablets of other versions read: queued, and refused (in conflict included, its reason says which).
 * An entry being sent when the file is made is waiting as far as the file goes: nothing sends it from
 * the file, the tablet that imports it does (under the same key, so the server keeps it once).
 */
function fileState(state: OutboxEntry['state']): HandoverFileEntry['state'] {
  switch (state) {
    case 'queued':
    case 'sending':
      return 'pending';
    case 'refused':
    case 'in_conflict':
      return 'rejected';
    default:
      return state;
  }
}

async function toFileEntry(row: OutboxEntry, photo: PhotoRow | undefined): Promise<HandoverFileEntry> {
  const { recorded_at, ...body } = row.entry;
  return {
    idempotency_key: row.key,
    recorded_at,
    ...body,
    state: fileState(row.state),
    ...(row.lastError ? { last_error: fileError(row.lastError) } : {}),
    ...(photo ? { photo: await filePhoto(photo) } : {}),
  };
}

/**
 * The file, sealed: the seal covers everything else in it (RFC 8785, contract/canonical-json.ts), photos included.
 * `photos`: the entries' photos, by the key of the entry each belongs to; `sentEntriesPhotos`: photos
 * still to be sent whose entries the server holds.
 */
export async function buildHandover(
  partnerId: string,
  rows: readonly OutboxEntry[],
  exportedAt: Date,
  handoverKey: string,
  photos: ReadonlyMap<string, PhotoRow> = new Map(),
  sentEntriesPhotos: readonly SentEntryPhoto[] = [],
): Promise<HandoverFile> {
  const content = {
    format: HANDOVER_FORMAT,
    version: HANDOVER_VERSION,
    partner_id: partnerId,
    key_id: await keyIdOf(handoverKey),
    exported_at: exportedAt.toISOString(),
    entries: await Promise.all(rows.map((row) => toFileEntry(row, photos.get(row.key)))),
    ...(sentEntriesPhotos.length > 0
      ? {
          sent_entries_photos: await Promise.all(
            sentEntriesPhotos.map(async ({ row, repairId }) => ({
              idempotency_key: row.entryKey,
              repair_id: repairId,
              photo: await filePhoto(row),
            })),
          ),
        }
      : {}),
  };
  return { ...content, seal: await sealOf(content, handoverKey) };
}

/** Lower-case ASCII words joined by hyphens; an Arabic-only name gives nothing, hence the fallback. */
function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const pad = (value: number) => String(value).padStart(2, '0');

/** `kode-garage-<partner name or id>-YYYY-MM-DD.json`, the tablet's local date. */
export function handoverFileName(partner: { id: string; full_name: string }, date: Date): string {
  const name = slug(partner.full_name) || slug(partner.id);
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `kode-garage-${name}-${day}.json`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function photoOf(photo: z.output<typeof handoverPhoto>): NewPhoto {
  return {
    blob: new Blob([fromBase64(photo.data)], { type: photo.type }),
    type: photo.type,
    width: photo.width,
    height: photo.height,
  };
}

function toHandedOver({
  idempotency_key,
  state,
  last_error,
  photo,
  ...entry
}: z.output<typeof handoverEntry>): HandedOverEntry {
  return {
    key: idempotency_key,
    entry,
    rejected: state === 'rejected',
    // The importing tablet words the reason itself, in its own language.
    lastError: last_error ? { ...last_error, message: '' } : null,
    ...(photo ? { photo: photoOf(photo) } : {}),
  };
}

/**
 * The file's entries for this partner, or why it is refused. Checks everything before anything is
 * written: format and version, partner, then the seal over the file as parsed (what is checked is what
 * is imported), then each entry against the contract.
 */
export async function readHandover(
  text: string,
  partnerId: string,
  handoverKey: string,
): Promise<HandedOver | HandoverRefusal> {
  const json = parseJson(text);
  if (json === undefined) return 'not-json';
  const header = handoverHeader.safeParse(json);
  if (!header.success || header.data.format !== HANDOVER_FORMAT) return 'other-format';
  if (header.data.version === UNSEALED_VERSION) return 'unsealed';
  if (header.data.version !== HANDOVER_VERSION) return 'other-format';
  const owner = handoverOwner.safeParse(json);
  if (owner.success && owner.data.partner_id !== partnerId) return 'other-partner';
  const keyId = owner.success ? owner.data.key_id : undefined;
  if (typeof keyId === 'string' && keyId !== (await keyIdOf(handoverKey))) return 'other-key';
  // The file as parsed, less its seal: exactly what the exporting tablet sealed, if nothing changed.
  const { seal, ...content } = json as Record<string, unknown>;
  if (!(await sealHolds(content, seal, handoverKey))) return 'tampered';
  const file = handoverFile.safeParse(json);
  if (!file.success || file.data.partner_id !== partnerId) return 'damaged';
  return {
    entries: file.data.entries.map(toHandedOver),
    sentEntriesPhotos: (file.data.sent_entries_photos ?? []).map((value) => ({
      entryKey: value.idempotency_key,
      repairId: value.repair_id,
      photo: photoOf(value.photo),
    })),
  };
}

/** The signed-in partner's hand-over key, as the last sign-in answer gave it (session.ts keeps it). */
async function handoverKeyOf(partnerId: string): Promise<string | null> {
  return (await db.accounts.get(partnerId))?.handoverKey ?? null;
}

/** Offers the file for download: a Blob behind an object URL and an <a download>, which works offline. */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the browser has taken the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Exports the signed-in partner's unsent and refused entries, sealed; says how many (0: no file). */
export async function exportHandover(now: Date = new Date()): Promise<HandoverExport> {
  const user = getSession().user;
  if (!user) return { kind: 'exported', count: 0, photos: 0 };
  const rows = await partnerOutbox(db, user.id);
  const sentEntriesPhotos = await photosOfSentEntries(user.id, rows);
  if (rows.length === 0 && sentEntriesPhotos.length === 0) return { kind: 'exported', count: 0, photos: 0 };
  if (!sealingAvailable()) return { kind: 'refused', reason: 'unsupported' };
  const key = await handoverKeyOf(user.id);
  if (!key) return { kind: 'refused', reason: 'no-key' };
  const photos = await db.photos
    .where('entryKey')
    .anyOf(rows.map((row) => row.key))
    .toArray();
  const photosByEntry = new Map(photos.map((photo) => [photo.entryKey, photo]));
  const file = await buildHandover(user.id, rows, now, key, photosByEntry, sentEntriesPhotos);
  download(handoverFileName(user, now), JSON.stringify(file, null, 2));
  return { kind: 'exported', count: rows.length, photos: sentEntriesPhotos.length };
}

/**
 * The partner's photos still to be sent whose entries have left the outbox (the server holds them),
 * each with its repair. Refused photos stay: another tablet's server would refuse them too.
 */
async function photosOfSentEntries(partnerId: string, outbox: readonly OutboxEntry[]): Promise<SentEntryPhoto[]> {
  const queued = new Set(outbox.map((row) => row.key));
  return (await photosWithRepair(db, partnerId)).filter(({ row }) => !queued.has(row.entryKey));
}

/** Imports a hand-over file for the signed-in partner, all or nothing, then starts sending. */
export async function importHandover(text: string, now: Date = new Date()): Promise<HandoverImport> {
  const partnerId = getSession().user?.id;
  if (!partnerId) return { kind: 'refused', reason: 'signed-out' };
  if (!sealingAvailable()) return { kind: 'refused', reason: 'unsupported' };
  const key = await handoverKeyOf(partnerId);
  if (!key) return { kind: 'refused', reason: 'no-key' };
  const file = await readHandover(text, partnerId, key);
  if (typeof file === 'string') return { kind: 'refused', reason: file };
  const result = await importHandedOver(db, partnerId, file.entries, now.toISOString(), file.sentEntriesPhotos);
  if (result.added + result.photosAdded > 0) void getSyncEngine().kick('manual');
  // The names of the repair types a conflict names, for the mechanic to read.
  const repairTypes = result.conflicts.length > 0 ? await db.repairTypes.toArray() : [];
  return { kind: 'imported', result, repairTypes: repairTypes.map(({ position: _position, ...type }) => type) };
}
