/**
 * An uploaded photo's type and dimensions, read from its bytes (docs/API.md#photos): the declared
 * Content-Type is only the client's word, so the bytes decide. Only the headers are read, never the
 * pixels: what the tablet's camera makes is a WebP or a JPEG, and either says its size near the start.
 * Every read is checked against the buffer first, so bytes of any shape give null, never an exception.
 */
import type { PhotoType } from '../../../contract';

export type { PhotoType };

export interface ImageHeader {
  type: PhotoType;
  width: number;
  height: number;
}

interface Size {
  width: number;
  height: number;
}

/** null when the bytes are not a WebP or JPEG whose header gives its dimensions. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  // The view keeps the array's offset: a Node Buffer is often a slice of a larger pooled one.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isJpeg(view)) return withType('image/jpeg', jpegSize(view));
  if (isWebp(view)) return withType('image/webp', webpSize(view));
  return null;
}

function withType(type: PhotoType, size: Size | null): ImageHeader | null {
  // A side of 0 is no picture: JPEG allows a height given later (a DNL marker), which no camera writes.
  if (!size || size.width < 1 || size.height < 1) return null;
  return { type, width: size.width, height: size.height };
}

/** Whether `length` bytes from `at` lie inside the view. */
function fits(view: DataView, at: number, length: number): boolean {
  return at >= 0 && length >= 0 && at + length <= view.byteLength;
}

// --- JPEG: a chain of marker segments; the frame header (SOFn) carries the size. ---

const SOS = 0xda;
const EOI = 0xd9;

/** SOI (FF D8) then the first marker's FF: every JPEG starts so. */
function isJpeg(view: DataView): boolean {
  return fits(view, 0, 3) && view.getUint8(0) === 0xff && view.getUint8(1) === 0xd8 && view.getUint8(2) === 0xff;
}

/** Restart markers and TEM stand alone: no length follows them. */
function isStandalone(code: number): boolean {
  return (code >= 0xd0 && code <= 0xd7) || code === 0x01;
}

/** The frame headers; C4 (DHT), C8 (JPG) and CC (DAC) share their range but hold no size. */
function isStartOfFrame(code: number): boolean {
  return code >= 0xc0 && code <= 0xcf && code !== 0xc4 && code !== 0xc8 && code !== 0xcc;
}

function jpegSize(view: DataView): Size | null {
  let at = 2;
  // Each turn moves `at` forward (a segment's length is at least 2), so the walk ends within the buffer.
  for (;;) {
    const marker = readMarker(view, at);
    if (!marker) return null;
    if (isStandalone(marker.code)) {
      at = marker.end;
      continue;
    }
    // Image data (SOS) or the image's end (EOI) before a frame header: the size was never given.
    if (marker.code === SOS || marker.code === EOI) return null;
    const length = segmentLength(view, marker.end);
    if (length === null) return null;
    if (isStartOfFrame(marker.code)) return frameSize(view, marker.end, length);
    at = marker.end + length;
  }
}

/** The marker at `at` (FF, any fill FFs, then its code) and where its segment starts, or null if none is there. */
function readMarker(view: DataView, at: number): { code: number; end: number } | null {
  if (!fits(view, at, 1) || view.getUint8(at) !== 0xff) return null;
  let codeAt = at + 1;
  while (fits(view, codeAt, 1) && view.getUint8(codeAt) === 0xff) codeAt++;
  if (!fits(view, codeAt, 1)) return null;
  const code = view.getUint8(codeAt);
  // FF 00 is an escaped data byte, never a marker.
  return code === 0x00 ? null : { code, end: codeAt + 1 };
}

/** The length of the segment at `at` (it counts its own 2 bytes), or null if it is malformed or cut short. */
function segmentLength(view: DataView, at: number): number | null {
  if (!fits(view, at, 2)) return null;
  const length = view.getUint16(at);
  return length >= 2 && fits(view, at, length) ? length : null;
}

/** A frame header: length, precision (1 byte), then height and width, big-endian. */
function frameSize(view: DataView, at: number, length: number): Size | null {
  if (length < 7) return null;
  return { height: view.getUint16(at + 3), width: view.getUint16(at + 5) };
}

// --- WebP: a RIFF container whose first chunk says which bitstream follows and its size. ---

const RIFF_HEADER = 12; // "RIFF", the size of what follows, "WEBP"
const CHUNK_HEADER = 8; // four-character code, then the data's size

function fourCC(view: DataView, at: number): string {
  return String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3));
}

function isWebp(view: DataView): boolean {
  return fits(view, 0, RIFF_HEADER) && fourCC(view, 0) === 'RIFF' && fourCC(view, 8) === 'WEBP';
}

function webpSize(view: DataView): Size | null {
  if (!fits(view, RIFF_HEADER, CHUNK_HEADER)) return null;
  // The RIFF size counts from "WEBP": one that stops before the first chunk's header describes no image.
  if (view.getUint32(4, true) < 4 + CHUNK_HEADER) return null;
  const dataAt = RIFF_HEADER + CHUNK_HEADER;
  const dataSize = view.getUint32(RIFF_HEADER + 4, true);
  if (!fits(view, dataAt, dataSize)) return null;
  // The chunk's own view: a field beyond its declared size belongs to no chunk, and reads as missing.
  const chunk = new DataView(view.buffer, view.byteOffset + dataAt, dataSize);
  switch (fourCC(view, RIFF_HEADER)) {
    case 'VP8 ':
      return lossySize(chunk);
    case 'VP8L':
      return losslessSize(chunk);
    case 'VP8X':
      return extendedSize(chunk);
    default:
      return null;
  }
}

/** Lossy: a 3-byte frame tag, the key frame's start code 9D 01 2A, then 14-bit width and height. */
function lossySize(chunk: DataView): Size | null {
  if (!fits(chunk, 0, 10)) return null;
  if (chunk.getUint8(3) !== 0x9d || chunk.getUint8(4) !== 0x01 || chunk.getUint8(5) !== 0x2a) return null;
  // The top 2 bits of each are an upscaling hint for the decoder, not part of the size.
  return { width: chunk.getUint16(6, true) & 0x3fff, height: chunk.getUint16(8, true) & 0x3fff };
}

/** Lossless: the signature 2F, then width - 1 and height - 1 in 14 bits each, packed little-endian. */
function losslessSize(chunk: DataView): Size | null {
  if (!fits(chunk, 0, 5) || chunk.getUint8(0) !== 0x2f) return null;
  const bits = chunk.getUint32(1, true);
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
}

/** Extended: flags and 3 reserved bytes, then the canvas's width - 1 and height - 1, 24-bit little-endian. */
function extendedSize(chunk: DataView): Size | null {
  if (!fits(chunk, 0, 10)) return null;
  return { width: uint24(chunk, 4) + 1, height: uint24(chunk, 7) + 1 };
}

function uint24(view: DataView, at: number): number {
  return view.getUint16(at, true) + view.getUint8(at + 2) * 0x10000;
}
