/**
 * Small pictures for the photo tests, made byte by byte: a JPEG (start of image, an APP0, a baseline
 * frame header giving its size, a comment that makes each one different, end of image) and a lossless
 * WebP (its RIFF header and a VP8L chunk giving its size). The server reads only their headers.
 */

function u16be(value: number): number[] {
  return [(value >> 8) & 0xff, value & 0xff];
}

function u32le(value: number): number[] {
  return [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, (value >>> 24) & 0xff];
}

function segment(marker: number, body: number[]): number[] {
  return [0xff, marker, ...u16be(body.length + 2), ...body];
}

/** A JPEG of this size; `variant` goes into a comment, so two variants are two different photos. */
export function jpegOf(width: number, height: number, variant = 0): Buffer {
  const app0 = [0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];
  const frame = [8, ...u16be(height), ...u16be(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  const comment = [...Buffer.from(`odometer ${variant}`)];
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xe0, app0),
    ...segment(0xfe, comment),
    ...segment(0xc0, frame),
    0xff,
    0xd9,
  ]);
}

/** A lossless WebP of this size (at most 16,384 on a side); `variant` changes its last bytes. */
export function webpOf(width: number, height: number, variant = 0): Buffer {
  const w = width - 1;
  const h = height - 1;
  const packed = [w & 0xff, ((w >> 8) & 0x3f) | ((h & 0x03) << 6), (h >> 2) & 0xff, (h >> 10) & 0x0f];
  const data = [0x2f, ...packed, ...u32le(variant)];
  const chunk = [...Buffer.from('VP8L'), ...u32le(data.length), ...data];
  const body = [...Buffer.from('WEBP'), ...chunk];
  return Buffer.from([...Buffer.from('RIFF'), ...u32le(body.length), ...body]);
}

/** A PNG's signature and header: a picture, but not of a type a photo may be. */
export function pngOf(width: number, height: number): Buffer {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const header = [0, 0, 0, 13, ...Buffer.from('IHDR'), ...u32be(width), ...u32be(height), 8, 6, 0, 0, 0];
  return Buffer.from([...signature, ...header, 0, 0, 0, 0]);
}

function u32be(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}
