/**
 * The hand-over file (docs/ARCHITECTURE.md#the-hand-over-file): a partner's unsent and refused entries,
 * exported from one tablet and imported on another signed in as the same partner, with their original
 * Idempotency-Keys and recorded_at, so the server still stores each entry once. Loaded on demand (the
 * sending panel, the banner's Export): it carries the contract's schemas.
 */
import * as z from 'zod/mini';
import { IDEMPOTENCY_KEY_PATTERN, repairEntry } from '../../../contract';
import { db, type OutboxEntry } from '../db';
import { getSession } from '../session';
import { getSyncEngine } from './index';
import { importHandedOver, partnerOutbox, type HandedOverEntry, type HandOverResult } from './outbox';

export const HANDOVER_FORMAT = 'kode-garage-outbox';
export const HANDOVER_VERSION = 1;

const OUTBOX_STATES = ['pending', 'sending', 'waiting_for_sign_in', 'rejected'] as const;

/** One entry of the file: the body of POST /repairs (the contract's rules, once) plus its key and state. */
const handoverEntry = z.extend(repairEntry, {
  idempotency_key: z.string().check(z.regex(IDEMPOTENCY_KEY_PATTERN)),
  state: z.enum(OUTBOX_STATES),
  last_error: z.optional(
    z.nullable(
      z.object({
        code: z.number(),
        message: z.string(),
        fields: z.optional(z.record(z.string(), z.string())),
      }),
    ),
  ),
});

/** Read first, alone: a file of another format or version is named as such, not as damaged. */
const handoverHeader = z.looseObject({ format: z.string(), version: z.number() });

const handoverFile = z.object({
  format: z.literal(HANDOVER_FORMAT),
  version: z.literal(HANDOVER_VERSION),
  partner_id: z.string(),
  exported_at: z.iso.datetime({ offset: true }),
  entries: z.array(handoverEntry),
});

export type HandoverFile = z.input<typeof handoverFile>;
type HandoverFileEntry = HandoverFile['entries'][number];

/** Why a file was refused; nothing was imported. */
export type HandoverRefusal = 'not-json' | 'other-format' | 'damaged' | 'other-partner' | 'signed-out';

export type HandoverImport =
  { kind: 'imported'; result: HandOverResult } | { kind: 'refused'; reason: HandoverRefusal };

function toFileEntry(row: OutboxEntry): HandoverFileEntry {
  const { recorded_at, ...body } = row.entry;
  return {
    idempotency_key: row.key,
    recorded_at,
    ...body,
    state: row.state,
    ...(row.lastError ? { last_error: row.lastError } : {}),
  };
}

export function buildHandover(partnerId: string, rows: readonly OutboxEntry[], exportedAt: Date): HandoverFile {
  return {
    format: HANDOVER_FORMAT,
    version: HANDOVER_VERSION,
    partner_id: partnerId,
    exported_at: exportedAt.toISOString(),
    entries: rows.map(toFileEntry),
  };
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

/** The file's entries for this partner, or why it is refused. Checks everything before anything is written. */
export function readHandover(text: string, partnerId: string): HandedOverEntry[] | HandoverRefusal {
  const json = parseJson(text);
  if (json === undefined) return 'not-json';
  const header = handoverHeader.safeParse(json);
  if (!header.success || header.data.format !== HANDOVER_FORMAT || header.data.version !== HANDOVER_VERSION) {
    return 'other-format';
  }
  const file = handoverFile.safeParse(json);
  if (!file.success) return 'damaged';
  if (file.data.partner_id !== partnerId) return 'other-partner';
  return file.data.entries.map(({ idempotency_key, state, last_error, ...entry }) => ({
    key: idempotency_key,
    entry,
    rejected: state === 'rejected',
    lastError: last_error ?? null,
  }));
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

/** Exports the signed-in partner's unsent and refused entries; resolves to how many (0: no file). */
export async function exportHandover(now: Date = new Date()): Promise<number> {
  const user = getSession().user;
  if (!user) return 0;
  const rows = await partnerOutbox(db, user.id);
  if (rows.length === 0) return 0;
  download(handoverFileName(user, now), JSON.stringify(buildHandover(user.id, rows, now), null, 2));
  return rows.length;
}

/** Imports a hand-over file for the signed-in partner, all or nothing, then starts sending. */
export async function importHandover(text: string, now: Date = new Date()): Promise<HandoverImport> {
  const partnerId = getSession().user?.id;
  if (!partnerId) return { kind: 'refused', reason: 'signed-out' };
  const entries = readHandover(text, partnerId);
  if (typeof entries === 'string') return { kind: 'refused', reason: entries };
  const result = await importHandedOver(db, partnerId, entries, now.toISOString());
  if (result.added > 0) void getSyncEngine().kick('manual');
  return { kind: 'imported', result };
}
