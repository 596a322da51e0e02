/** Telling a WebP or JPEG photo, and its size, from its first bytes (docs/API.md#photos). */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImageHeader } from '../../../../server/services/photos/image-header';
import { bytes, riff, segment, u16be, u16le, u24le, u32le, type Part } from '../../../support/photos';

// --- Files built byte by byte (tests/support/photos.ts): only the parts a header reader looks at. ---

const app0 = () => segment(0xe0, bytes('JFIF\0', [1, 1, 0], u16be(72), u16be(72), [0, 0]));
const app1Exif = () => segment(0xe1, bytes('Exif\0\0', 'II*\0', u32le(8), [0, 0]));
// A DHT's table counts sit where a frame header keeps its size: read as a frame, it would give 1281×1.
const dht = () =>
  segment(0xc4, [0x00, 0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
const dqt = () => segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]);
/** A frame header for 3 components: precision, height, width, then each component's id, sampling and table. */
const sof = (code: number, width: number, height: number) =>
  segment(code, bytes([8], u16be(height), u16be(width), [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]));
const sos = () => bytes(segment(SOS, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]), [0x12, 0x34, 0xff, 0x00, 0x56]);
const SOS = 0xda;
/** SOF0-3, 5-7, 9-11 and 13-15: baseline, extended, progressive, lossless, hierarchical, arithmetic. */
const FRAME_MARKERS = [0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf];
const SOI = [0xff, 0xd8];
const EOI = [0xff, 0xd9];

/** A whole JPEG: SOI, the segments before the image data, then the scan and EOI. */
const jpeg = (...segments: Part[]) => bytes(SOI, ...segments, sos(), EOI);
const baselineJpeg = (width: number, height: number) => jpeg(app0(), dqt(), sof(0xc0, width, height), dht());
const progressiveJpeg = (width: number, height: number) => jpeg(app1Exif(), dqt(), dht(), sof(0xc2, width, height));

/** A lossy key frame: frame tag, start code, 14-bit sizes (with the upscaling bits), then stand-in data. */
const vp8Data = (width: number, height: number) =>
  bytes([0x50, 0x02, 0x00, 0x9d, 0x01, 0x2a], u16le(width), u16le(height), [0x00, 0x11, 0x22, 0x33]);
const vp8 = (width: number, height: number) => riff('WEBP', 'VP8 ', vp8Data(width, height));
const vp8l = (width: number, height: number) =>
  riff('WEBP', 'VP8L', bytes([0x2f], u32le(((width - 1) | ((height - 1) << 14)) >>> 0), [0x00, 0x11, 0x22]));
const vp8x = (width: number, height: number) =>
  riff('WEBP', 'VP8X', bytes([0x10, 0, 0, 0], u24le(width - 1), u24le(height - 1)));

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const GIF_1X1 = bytes('GIF89a', u16le(1), u16le(1), [0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff], ',', [0, 0, 0, 0], ';');

describe('readImageHeader on JPEG', () => {
  it('reads the size of a baseline JPEG from its frame header after APP0', () => {
    expect(readImageHeader(baselineJpeg(1600, 1200))).toEqual({ type: 'image/jpeg', width: 1600, height: 1200 });
  });

  it('reads a progressive JPEG whose frame header comes after EXIF and a Huffman table', () => {
    expect(readImageHeader(progressiveJpeg(1200, 1600))).toEqual({ type: 'image/jpeg', width: 1200, height: 1600 });
  });

  it.each(FRAME_MARKERS.map((code) => [code.toString(16).toUpperCase(), code] as const))(
    'takes marker FF %s as the frame header',
    (_, code) => {
      expect(readImageHeader(jpeg(app0(), sof(code, 1, 65535)))).toEqual({
        type: 'image/jpeg',
        width: 1,
        height: 65535,
      });
    },
  );

  it.each([
    ['DHT', 0xc4],
    ['JPG', 0xc8],
    ['DAC', 0xcc],
  ])('walks past %s, which shares the frame markers’ range', (_, code) => {
    const lookalike = segment(code, bytes([8], u16be(7), u16be(9), [1, 1, 0x11, 0]));
    expect(readImageHeader(jpeg(lookalike, sof(0xc0, 640, 480)))).toMatchObject({ width: 640, height: 480 });
  });

  it('skips fill bytes before a marker and restart markers, which have no length', () => {
    const file = bytes(SOI, [0xff, 0xff, 0xff], app0(), [0xff, 0xd0, 0xff, 0x01], sof(0xc0, 800, 600), sos(), EOI);
    expect(readImageHeader(file)).toMatchObject({ width: 800, height: 600 });
  });

  it('gives null when the image data (SOS) or the end (EOI) comes before any frame header', () => {
    expect(readImageHeader(bytes(SOI, app0(), sos(), sof(0xc0, 800, 600), EOI))).toBeNull();
    expect(readImageHeader(bytes(SOI, app0(), EOI, sof(0xc0, 800, 600)))).toBeNull();
  });

  it('gives null for every JPEG cut before its frame header ends, as in the middle of a segment', () => {
    const file = baselineJpeg(1600, 1200);
    const frameEnd = bytes(SOI, app0(), dqt(), sof(0xc0, 1600, 1200)).length;
    for (let length = 0; length < frameEnd; length++) {
      expect(readImageHeader(file.subarray(0, length)), `cut at ${length}`).toBeNull();
    }
    expect(readImageHeader(file.subarray(0, frameEnd))).toMatchObject({ width: 1600, height: 1200 });
  });

  it('gives null for a segment length below 2, which would not move the walk on', () => {
    expect(readImageHeader(bytes(SOI, [0xff, 0xe0, 0x00, 0x01], sof(0xc0, 8, 8)))).toBeNull();
    expect(readImageHeader(bytes(SOI, [0xff, 0xe0, 0x00, 0x00], sof(0xc0, 8, 8)))).toBeNull();
  });

  it('gives null for a frame header too short to hold the size', () => {
    expect(readImageHeader(jpeg(segment(0xc0, [8, 0x04, 0xb0])))).toBeNull();
  });

  it('gives null when a segment is followed by no marker', () => {
    expect(readImageHeader(bytes(SOI, app0(), [0x12, 0x34], sof(0xc0, 8, 8)))).toBeNull();
    expect(readImageHeader(bytes(SOI, app0(), [0xff, 0x00], sof(0xc0, 8, 8)))).toBeNull();
  });

  it.each([
    ['width', 0, 1200],
    ['height', 1600, 0],
  ])('gives null for a frame header whose %s is 0', (_, width, height) => {
    expect(readImageHeader(baselineJpeg(width, height))).toBeNull();
  });

  it('reads an array that is a view into a larger buffer, as a pooled Node Buffer is', () => {
    const file = baselineJpeg(320, 240);
    const larger = bytes('RIFF....WEBP', file, [0xff, 0xd8, 0xff]);
    expect(readImageHeader(larger.subarray(12, 12 + file.length))).toMatchObject({ width: 320, height: 240 });
  });
});

describe('readImageHeader on WebP', () => {
  it.each([
    [1600, 1200],
    [1, 1],
    [16383, 16383],
  ])('reads a lossy (VP8) WebP of %i×%i', (width, height) => {
    expect(readImageHeader(vp8(width, height))).toEqual({ type: 'image/webp', width, height });
  });

  it.each([
    [1600, 1200],
    [1, 1],
    [16383, 16383],
    [16384, 16384],
  ])('reads a lossless (VP8L) WebP of %i×%i', (width, height) => {
    expect(readImageHeader(vp8l(width, height))).toEqual({ type: 'image/webp', width, height });
  });

  it.each([
    [1600, 1200],
    [1, 1],
    [16383, 16383],
    [70000, 3],
  ])('reads an extended (VP8X) WebP of %i×%i', (width, height) => {
    expect(readImageHeader(vp8x(width, height))).toEqual({ type: 'image/webp', width, height });
  });

  it('leaves out the upscaling bits above a lossy frame’s 14-bit size', () => {
    expect(readImageHeader(vp8(0x4000 | 1600, 0xc000 | 1200))).toMatchObject({ width: 1600, height: 1200 });
  });

  it('gives null for a lossy frame of width 0 or height 0', () => {
    expect(readImageHeader(vp8(0, 1200))).toBeNull();
    expect(readImageHeader(vp8(1600, 0x4000))).toBeNull();
  });

  it('gives null for a RIFF that is WAVE, not WEBP', () => {
    expect(
      readImageHeader(riff('WAVE', 'fmt ', bytes(u16le(1), u16le(2), u32le(44100), u32le(176400), [4, 0, 16, 0]))),
    ).toBeNull();
  });

  it.each(['ALPH', 'VP9 ', 'vp8 ', 'ICCP'])('gives null for a WebP whose first chunk is %s', (fourCC) => {
    expect(readImageHeader(riff('WEBP', fourCC, vp8Data(1600, 1200)))).toBeNull();
  });

  it('gives null for a RIFF size that ends before the first chunk’s header', () => {
    expect(readImageHeader(riff('WEBP', 'VP8 ', vp8Data(1600, 1200), 11))).toBeNull();
    expect(readImageHeader(riff('WEBP', 'VP8 ', vp8Data(1600, 1200), 12))).toMatchObject({ width: 1600 });
  });

  it('gives null for a lossy frame without the start code or a lossless one without the signature', () => {
    const noStartCode = vp8Data(1600, 1200);
    noStartCode[3] = 0x9c;
    expect(readImageHeader(riff('WEBP', 'VP8 ', noStartCode))).toBeNull();
    expect(readImageHeader(riff('WEBP', 'VP8L', bytes([0x2e], u32le(0), [0, 0])))).toBeNull();
  });

  it('gives null for a chunk whose declared size is too small for the fields read', () => {
    expect(readImageHeader(riff('WEBP', 'VP8X', [0x10, 0, 0, 0, 0x3f, 0x06, 0]))).toBeNull();
    expect(readImageHeader(riff('WEBP', 'VP8L', [0x2f, 0x3f, 0xc6]))).toBeNull();
    expect(readImageHeader(riff('WEBP', 'VP8 ', vp8Data(1600, 1200).subarray(0, 9)))).toBeNull();
  });

  it.each([
    ['VP8', vp8(1600, 1200)],
    ['VP8L', vp8l(1600, 1200)],
    ['VP8X', vp8x(1600, 1200)],
  ])('gives null for every %s WebP cut before its first chunk ends', (_, file) => {
    for (let length = 0; length < file.length; length++) {
      expect(readImageHeader(file.subarray(0, length)), `cut at ${length}`).toBeNull();
    }
    expect(readImageHeader(file)).toMatchObject({ width: 1600, height: 1200 });
  });
});

describe('readImageHeader on other bytes', () => {
  it.each([
    ['PNG', PNG_1X1],
    ['GIF', GIF_1X1],
    ['empty', bytes()],
    ['text', bytes('Odometer: 123456 km, photo to follow.\n')],
    ['a lone SOI', bytes(SOI)],
    ['RIFF alone', bytes('RIFF')],
  ])('gives null for %s', (_, file) => {
    expect(readImageHeader(file)).toBeNull();
  });

  it('never throws on random bytes, nor on valid files with random bytes changed or cut off', () => {
    const random = seededRandom(0x0d0);
    const byte = () => Math.floor(random() * 256);
    const files = [baselineJpeg(1600, 1200), progressiveJpeg(640, 480), vp8(1600, 1200), vp8l(99, 7), vp8x(5, 5)];
    for (let i = 0; i < 300; i++) {
      const noise = Uint8Array.from({ length: Math.floor(random() * 64) }, byte);
      const file = files[i % files.length] ?? bytes();
      const changed = file.slice(0, Math.floor(random() * (file.length + 1)));
      for (let n = 0; n < 3; n++) changed[Math.floor(random() * changed.length)] = byte();
      const prefixed = bytes(file.subarray(0, Math.floor(random() * 24)), noise);
      for (const candidate of [noise, changed, prefixed]) expectNullOrHeader(readImageHeader(candidate));
    }
  });
});

/**
 * Pictures a real encoder wrote, kept beside the tests (tests/server/fixtures/photos) so no test needs
 * the encoder: ImageMagick 6.9, `convert -size 1600x1200 xc:gray` to baseline.jpg and lossy.webp, with
 * `-interlace Plane` to progressive.jpg, with `-define webp:lossless=true` to lossless.webp, and
 * `xc:none` (with alpha) to alpha.webp.
 */
describe('readImageHeader on files an encoder wrote', () => {
  const fixtures = path.join(import.meta.dirname, '..', '..', 'fixtures', 'photos');

  it.each([
    ['a baseline JPEG', 'baseline.jpg', 'image/jpeg'],
    ['a progressive JPEG', 'progressive.jpg', 'image/jpeg'],
    ['a lossy WebP', 'lossy.webp', 'image/webp'],
    ['a lossless WebP', 'lossless.webp', 'image/webp'],
    ['an extended WebP (with alpha)', 'alpha.webp', 'image/webp'],
  ])('reads %s', (_, name, type) => {
    expect(readImageHeader(fs.readFileSync(path.join(fixtures, name)))).toEqual({ type, width: 1600, height: 1200 });
  });
});

/** mulberry32: a small seeded generator, so a failure comes back on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function expectNullOrHeader(header: ReturnType<typeof readImageHeader>): void {
  if (header === null) return;
  expect(['image/jpeg', 'image/webp']).toContain(header.type);
  expect(Number.isInteger(header.width) && header.width >= 1).toBe(true);
  expect(Number.isInteger(header.height) && header.height >= 1).toBe(true);
}
