/**
 * What a photo carries besides its picture, taken out before it is stored (docs/API.md#photos): an
 * EXIF block can hold where the photo was taken (GPS), by whom and on which device, and a garage's
 * photo is shown to no one but that garage, yet kept for years. The tablet re-encodes what its camera
 * makes, which drops all of it, but the server does not rely on a client for that.
 *
 * Lossless: the picture's own bytes are kept as they are, only whole segments (JPEG) or chunks (WebP)
 * are left out. Each function gives null for a file whose structure does not hold from its first
 * byte to its end; the decoder (picture.ts) then judges the pixels.
 */

// --- JPEG: segments until the image data, entropy-coded data, more segments between scans, EOI. ---

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const COM = 0xfe;

/**
 * APP1 to APP15 (EXIF, XMP, ICC profiles, maker notes, Photoshop's IPTC) and comments. APP0 stays: it
 * is JFIF's header, which says how to read the pixels.
 */
function isMetadata(code: number): boolean {
  return (code >= 0xe1 && code <= 0xef) || code === COM;
}

/** Restart markers and TEM stand alone: no length follows them. */
function isStandalone(code: number): boolean {
  return (code >= 0xd0 && code <= 0xd7) || code === 0x01;
}

/** The JPEG without its metadata segments and without anything after its EOI, or null if malformed. */
export function stripJpegMetadata(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== SOI) return null;
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  let at = 2;
  let scans = 0;
  for (;;) {
    // Fill bytes (FF FF …) may come before a marker's code.
    if (bytes[at] !== 0xff) return null;
    let codeAt = at + 1;
    while (codeAt < bytes.length && bytes[codeAt] === 0xff) codeAt++;
    if (codeAt >= bytes.length) return null;
    const code = bytes[codeAt]!;
    if (code === EOI) {
      kept.push(bytes.subarray(at, codeAt + 1));
      // An image without a scan shows nothing.
      return scans > 0 ? concat(kept) : null;
    }
    if (code === 0x00 || code === SOI) return null;
    if (isStandalone(code)) {
      kept.push(bytes.subarray(at, codeAt + 1));
      at = codeAt + 1;
      continue;
    }
    if (codeAt + 2 >= bytes.length) return null;
    const length = (bytes[codeAt + 1]! << 8) | bytes[codeAt + 2]!;
    const end = codeAt + 1 + length;
    if (length < 2 || end > bytes.length) return null;
    if (!isMetadata(code)) kept.push(bytes.subarray(at, end));
    at = end;
    if (code === SOS) {
      scans += 1;
      const dataEnd = entropyDataEnd(bytes, at);
      if (dataEnd === null) return null;
      kept.push(bytes.subarray(at, dataEnd));
      at = dataEnd;
    }
  }
}

/**
 * Where a scan's entropy-coded data ends: at the first marker that is not a stuffed byte (FF 00) nor
 * a restart marker, which belong to the data. null when no marker follows before the file ends.
 */
function entropyDataEnd(bytes: Uint8Array, from: number): number | null {
  let at = from;
  for (;;) {
    const ff = bytes.indexOf(0xff, at);
    if (ff < 0 || ff + 1 >= bytes.length) return null;
    const next = bytes[ff + 1]!;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) at = ff + 2;
    // FF FF is fill before a marker: the marker starts at the last of them.
    else if (next === 0xff) at = ff + 1;
    else return ff;
  }
}

// --- WebP: a RIFF container of chunks; the extended header (VP8X) flags the optional ones. ---

const RIFF_HEADER = 12;
const CHUNK_HEADER = 8;
const METADATA_CHUNKS = new Set(['EXIF', 'XMP ']);
/** The VP8X flags that announce an EXIF and an XMP chunk. */
const VP8X_EXIF_FLAG = 0x08;
const VP8X_XMP_FLAG = 0x04;

function fourCC(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
}

function readUint32le(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

/** The WebP without its EXIF and XMP chunks (its header and flags saying so), or null if malformed. */
export function stripWebpMetadata(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length < RIFF_HEADER + CHUNK_HEADER) return null;
  if (fourCC(bytes, 0) !== 'RIFF' || fourCC(bytes, 8) !== 'WEBP') return null;
  // The RIFF size counts from "WEBP"; whatever lies past it is not part of the file.
  const end = 8 + readUint32le(bytes, 4);
  if (end > bytes.length || end < RIFF_HEADER + CHUNK_HEADER) return null;
  const kept: Uint8Array[] = [];
  for (let at = RIFF_HEADER; at < end;) {
    if (at + CHUNK_HEADER > end) return null;
    const size = readUint32le(bytes, at + 4);
    // Chunks are padded to an even size.
    const next = at + CHUNK_HEADER + size + (size % 2);
    if (next > end) return null;
    if (!METADATA_CHUNKS.has(fourCC(bytes, at))) kept.push(bytes.subarray(at, next));
    at = next;
  }
  if (kept.length === 0) return null;
  const chunks = concat(kept);
  if (fourCC(chunks, 0) === 'VP8X' && chunks.length > CHUNK_HEADER) {
    chunks[CHUNK_HEADER] = chunks[CHUNK_HEADER]! & ~(VP8X_EXIF_FLAG | VP8X_XMP_FLAG);
  }
  const header = new Uint8Array(RIFF_HEADER);
  header.set(bytes.subarray(0, RIFF_HEADER));
  new DataView(header.buffer).setUint32(4, 4 + chunks.length, true);
  return concat([header, chunks]);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}
