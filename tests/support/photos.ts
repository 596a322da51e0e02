/**
 * Pictures for the photo tests, made byte by byte: only the parts a header reader looks at (the
 * server reads no further), with stand-in data after. The primitives build any JPEG segment or RIFF
 * chunk (tests/server/services/photos); jpegOf, webpOf and pngOf are whole small pictures.
 */

import type { PhotoRow } from '../../src/lib/db';

export type Part = number[] | Uint8Array | string;

/** The parts one after another; a string stands for its ASCII bytes. */
export function bytes(...parts: Part[]): Uint8Array {
  return Uint8Array.from(
    parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'latin1')] : [...part])),
  );
}

export const u16be = (n: number) => [(n >> 8) & 0xff, n & 0xff];
export const u16le = (n: number) => [n & 0xff, (n >> 8) & 0xff];
export const u24le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];
export const u32le = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
const u32be = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

/** A JPEG segment: its marker, its length (counting itself), its payload. */
export function segment(code: number, payload: Part = []): Uint8Array {
  const data = bytes(payload);
  return bytes([0xff, code], u16be(data.length + 2), data);
}

/** A RIFF file with one chunk (padded to an even size); `riffSize` overrides the size the header gives. */
export function riff(form: string, fourCC: string, data: Part, riffSize?: number): Uint8Array {
  const body = bytes(data);
  const padding = body.length % 2 === 1 ? [0] : [];
  const size = riffSize ?? 4 + 8 + body.length + padding.length;
  return bytes('RIFF', u32le(size), form, fourCC, u32le(body.length), body, padding);
}

/** A JPEG of this size; `variant` goes into a comment, so two variants are two different photos. */
export function jpegOf(width: number, height: number, variant = 0): Buffer {
  const app0 = bytes('JFIF\0', [1, 1, 0], u16be(1), u16be(1), [0, 0]);
  const frame = bytes([8], u16be(height), u16be(width), [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.from(
    bytes([0xff, 0xd8], segment(0xe0, app0), segment(0xfe, `odometer ${variant}`), segment(0xc0, frame), [0xff, 0xd9]),
  );
}

/** A lossless WebP of this size (at most 16,384 on a side); `variant` changes its last bytes. */
export function webpOf(width: number, height: number, variant = 0): Buffer {
  const size = ((width - 1) | ((height - 1) << 14)) >>> 0;
  return Buffer.from(riff('WEBP', 'VP8L', bytes([0x2f], u32le(size), u32le(variant))));
}

/** A PNG's signature and header: a picture, but not of a type a photo may be. */
export function pngOf(width: number, height: number): Buffer {
  const header = bytes(u32be(13), 'IHDR', u32be(width), u32be(height), [8, 6, 0, 0, 0]);
  return Buffer.from(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], header, [0, 0, 0, 0]));
}

/** A photo kept on the tablet for the entry `entryKey`, waiting to be sent; `bytes` of stand-in data. */
export function photoRow(
  entryKey: string,
  partnerId: string,
  options: { bytes?: Uint8Array<ArrayBuffer> | number } = {},
): PhotoRow {
  const data =
    typeof options.bytes === 'number' ? new Uint8Array(options.bytes) : (options.bytes ?? new Uint8Array(16));
  return {
    id: entryKey,
    entryKey,
    partnerId,
    blob: new Blob([data], { type: 'image/webp' }),
    type: 'image/webp',
    bytes: data.length,
    width: 1600,
    height: 900,
    state: 'waiting',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: '2026-11-28T08:15:00.000Z',
  };
}
