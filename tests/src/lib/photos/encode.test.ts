/**
 * The odometer photo encoder (src/lib/photos): the size a picture is fitted to, the quality and scale
 * ladder over a fake encoder, and encodePhoto's way to the worker or, without one, the page's canvas.
 * The real encoding is checked in Chromium, not here: jsdom has no canvas.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PHOTO_MAX_BYTES } from '../../../../contract';
import type { WorkerAnswer, WorkerRequest } from '../../../../src/lib/photos/encode';
import {
  encodeToFit,
  fittedSize,
  PHOTO_TARGET_BYTES,
  PhotoEncodeError,
  type EncodeRequest,
} from '../../../../src/lib/photos/ladder';

const KB = 1024;

/** A blob of this many bytes, of this type. */
const blobOf = (bytes: number, type: string) => new Blob([new Uint8Array(bytes)], { type });

/** A fake encoder: `bytes` decides each answer's size, `typeFor` its type (the browser's choice). */
function fakeEncoder(bytes: (request: EncodeRequest) => number, typeFor = (type: string) => type) {
  const requests: EncodeRequest[] = [];
  const encodeAt = async (request: EncodeRequest) => {
    requests.push(request);
    return blobOf(bytes(request), typeFor(request.type));
  };
  return { requests, encodeAt };
}

describe('fittedSize', () => {
  it.each([
    ['landscape', 4000, 3000, 1600, 1200],
    ['portrait', 3000, 4000, 1200, 1600],
    ['already small, never enlarged', 800, 600, 800, 600],
    ['exactly the limit, landscape', 1600, 900, 1600, 900],
    ['exactly the limit, portrait', 1200, 1600, 1200, 1600],
    ['odd sides', 4001, 3001, 1600, 1200],
    ['a short side rounded down (900.4)', 4000, 2251, 1600, 900],
    ['a short side rounded up (899.6)', 4000, 2249, 1600, 900],
    ['a sliver keeps one pixel', 10000, 3, 1600, 1],
  ])('%s: %i×%i → %i×%i', (_, width, height, fittedWidth, fittedHeight) => {
    expect(fittedSize(width, height)).toEqual({ width: fittedWidth, height: fittedHeight });
  });
});

describe('encodeToFit', () => {
  it('keeps the first quality under the target, trying the next ones only while above it', async () => {
    const sizes: Record<number, number> = { 0.82: 300 * KB, 0.72: 250 * KB, 0.62: 190 * KB, 0.52: 150 * KB };
    const { requests, encodeAt } = fakeEncoder(({ quality }) => sizes[quality] ?? 100 * KB);
    const photo = await encodeToFit(4000, 3000, encodeAt);
    expect(requests.map((r) => r.quality)).toEqual([0.82, 0.72, 0.62]);
    expect(photo).toMatchObject({ type: 'image/webp', width: 1600, height: 1200 });
    expect(photo.blob.size).toBe(190 * KB);
    expect(requests.every((r) => r.type === 'image/webp' && r.width === 1600 && r.height === 1200)).toBe(true);
  });

  it('takes an encoding of exactly the target', async () => {
    const { requests, encodeAt } = fakeEncoder(() => PHOTO_TARGET_BYTES);
    expect((await encodeToFit(4000, 3000, encodeAt)).blob.size).toBe(PHOTO_TARGET_BYTES);
    expect(requests).toHaveLength(1);
  });

  it('scales the picture down by a quarter when even the lowest quality is above the target', async () => {
    const { requests, encodeAt } = fakeEncoder(({ width }) => (width === 1600 ? 400 * KB : 150 * KB));
    const photo = await encodeToFit(4000, 3000, encodeAt);
    expect(requests.map((r) => `${r.width}x${r.height}@${r.quality}`)).toEqual([
      '1600x1200@0.82',
      '1600x1200@0.72',
      '1600x1200@0.62',
      '1600x1200@0.52',
      '1600x1200@0.42',
      '1200x900@0.82',
    ]);
    expect(photo).toMatchObject({ width: 1200, height: 900 });
  });

  it('scales down from the picture’s own size when it is below the limit', async () => {
    const { requests, encodeAt } = fakeEncoder(({ width }) => (width === 1000 ? 400 * KB : 150 * KB));
    expect(await encodeToFit(1000, 800, encodeAt)).toMatchObject({ width: 750, height: 600 });
    expect(requests).toHaveLength(6);
  });

  it('keeps the smallest encoding when the target cannot be met, as long as the API takes it', async () => {
    const { requests, encodeAt } = fakeEncoder(() => 300 * KB);
    const photo = await encodeToFit(4000, 3000, encodeAt);
    // 1600, 1200, 900, 675, 506: the next (380) would be below the floor.
    expect([...new Set(requests.map((r) => r.width))]).toEqual([1600, 1200, 900, 675, 506]);
    expect(photo).toMatchObject({ width: 506, height: 380 });
    expect(requests.at(-1)?.quality).toBe(0.42);
  });

  it('never scales a picture already below the floor', async () => {
    const { requests, encodeAt } = fakeEncoder(() => 300 * KB);
    expect(await encodeToFit(300, 200, encodeAt)).toMatchObject({ width: 300, height: 200 });
    expect(requests).toHaveLength(5);
  });

  it('refuses with too_large rather than return more than PHOTO_MAX_BYTES', async () => {
    const { encodeAt } = fakeEncoder(() => PHOTO_MAX_BYTES + 1);
    const failure = encodeToFit(4000, 3000, encodeAt);
    await expect(failure).rejects.toBeInstanceOf(PhotoEncodeError);
    await expect(failure).rejects.toMatchObject({ problem: 'too_large' });
  });

  it('encodes JPEG, from the same step on, when the browser answers WebP with another type', async () => {
    // Safari's canvas gives PNG for a type it cannot encode.
    const { requests, encodeAt } = fakeEncoder(
      ({ quality }) => (quality > 0.7 ? 300 * KB : 100 * KB),
      (type) => (type === 'image/webp' ? 'image/png' : type),
    );
    const photo = await encodeToFit(4000, 3000, encodeAt);
    expect(requests.map((r) => `${r.type}@${r.quality}`)).toEqual([
      'image/webp@0.82',
      'image/jpeg@0.82',
      'image/jpeg@0.72',
      'image/jpeg@0.62',
    ]);
    expect(photo.type).toBe('image/jpeg');
    expect(photo.blob.type).toBe('image/jpeg');
  });

  it('starts with JPEG when told the browser cannot encode WebP', async () => {
    const { requests, encodeAt } = fakeEncoder(() => 100 * KB);
    expect((await encodeToFit(4000, 3000, encodeAt, 'image/jpeg')).type).toBe('image/jpeg');
    expect(requests.map((r) => r.type)).toEqual(['image/jpeg']);
  });

  it('fails when the browser encodes neither WebP nor JPEG', async () => {
    const { encodeAt } = fakeEncoder(
      () => 100 * KB,
      () => 'image/png',
    );
    await expect(encodeToFit(4000, 3000, encodeAt)).rejects.toMatchObject({ problem: 'failed' });
  });
});

/** A worker stand-in: records what it is sent; the test answers as the real one would. */
class FakeWorker extends EventTarget {
  /** The one worker encodePhoto started. */
  static only(): FakeWorker {
    expect(FakeWorker.made).toHaveLength(1);
    return FakeWorker.made[0]!;
  }
  static made: FakeWorker[] = [];
  readonly sent: WorkerRequest[] = [];
  terminated = false;
  constructor(
    readonly url: URL,
    readonly options: WorkerOptions,
  ) {
    super();
    FakeWorker.made.push(this);
  }
  postMessage(request: WorkerRequest) {
    this.sent.push(request);
  }
  terminate() {
    this.terminated = true;
  }
  /** The id of the n-th request it was sent. */
  idOf(n: number): number {
    const request = this.sent[n];
    if (!request) throw new Error(`no request ${n}`);
    return request.id;
  }
  answer(data: WorkerAnswer) {
    this.dispatchEvent(new MessageEvent('message', { data }));
  }
}

/** The page's canvas path in jsdom: a decoded 4000×3000 picture and a canvas answering small blobs. */
function stubPageCanvas(decode: () => Promise<unknown> = async () => ({ width: 4000, height: 3000, close: vi.fn() })) {
  const createImageBitmap = vi.fn(decode);
  vi.stubGlobal('createImageBitmap', createImageBitmap);
  const drawImage = vi.fn();
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
    drawImage,
    imageSmoothingQuality: 'low',
  } as unknown as CanvasRenderingContext2D);
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((done, type) => done(blobOf(10 * KB, type!)));
  return { createImageBitmap, drawImage };
}

describe('encodePhoto', () => {
  // The module keeps its worker: each test starts from a fresh copy (with its own PhotoEncodeError).
  const load = () => import('../../../../src/lib/photos/encode');
  const photoFile = blobOf(10, 'image/jpeg');

  beforeEach(() => {
    vi.resetModules();
    FakeWorker.made = [];
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  describe('without a worker (jsdom has neither Worker nor OffscreenCanvas)', () => {
    it('encodes on the page, orientation applied and the picture fitted, with a small preview', async () => {
      const { createImageBitmap, drawImage } = stubPageCanvas();
      const { encodePhoto } = await load();
      const photo = await encodePhoto(photoFile);
      expect(photo).toMatchObject({ type: 'image/webp', width: 1600, height: 1200 });
      expect(photo.preview).toBeInstanceOf(Blob);
      expect(createImageBitmap).toHaveBeenCalledWith(photoFile, { imageOrientation: 'from-image' });
      expect(drawImage).toHaveBeenCalledWith(expect.anything(), 0, 0, 1600, 1200);
      // The preview: the same picture drawn 336 px on its long side, for the form's 112 px box.
      expect(drawImage).toHaveBeenLastCalledWith(expect.anything(), 0, 0, 336, 252);
    });

    it('asks a canvas that refused WebP for JPEG straight away at the next photo', async () => {
      stubPageCanvas();
      const toBlob = vi
        .spyOn(HTMLCanvasElement.prototype, 'toBlob')
        .mockImplementation((done, type) => done(blobOf(10 * KB, type === 'image/webp' ? 'image/png' : type!)));
      const { encodePhoto } = await load();
      expect((await encodePhoto(photoFile)).type).toBe('image/jpeg');
      expect((await encodePhoto(photoFile)).type).toBe('image/jpeg');
      // Each photo and its preview: WebP refused once, JPEG from then on.
      expect(toBlob.mock.calls.map(([, type]) => type)).toEqual([
        'image/webp',
        'image/jpeg',
        'image/jpeg',
        'image/jpeg',
        'image/jpeg',
      ]);
    });

    it('rejects a picture the browser cannot decode as unreadable', async () => {
      stubPageCanvas(() => Promise.reject(new DOMException('bad image', 'InvalidStateError')));
      const { encodePhoto, PhotoEncodeError: FreshError } = await load();
      const failure = encodePhoto(photoFile);
      await expect(failure).rejects.toBeInstanceOf(FreshError);
      await expect(failure).rejects.toMatchObject({ problem: 'unreadable' });
    });
  });

  describe('with a worker', () => {
    beforeEach(() => {
      vi.stubGlobal('Worker', FakeWorker);
      vi.stubGlobal('OffscreenCanvas', class {});
    });

    it('starts one module worker and matches its answers to the requests by id', async () => {
      const { encodePhoto } = await load();
      const first = encodePhoto(photoFile);
      const second = encodePhoto(photoFile);
      const worker = FakeWorker.only();
      expect(worker.url.pathname).toMatch(/\/encode-worker\.ts$/);
      expect(worker.options).toEqual({ type: 'module' });
      const [a, b] = [worker.idOf(0), worker.idOf(1)];
      expect(a).not.toBe(b);
      const photo = (width: number) => ({
        blob: blobOf(1, 'image/webp'),
        type: 'image/webp' as const,
        width,
        height: 1,
        preview: blobOf(1, 'image/webp'),
      });
      worker.answer({ id: b, ok: true, photo: photo(2) });
      worker.answer({ id: a, ok: true, photo: photo(1) });
      expect((await first).width).toBe(1);
      expect((await second).width).toBe(2);
    });

    it('passes on the worker’s unreadable as a PhotoEncodeError', async () => {
      const { encodePhoto, PhotoEncodeError: FreshError } = await load();
      const failure = encodePhoto(photoFile);
      const worker = FakeWorker.only();
      worker.answer({ id: worker.idOf(0), ok: false, problem: 'unreadable', message: 'bad image' });
      await expect(failure).rejects.toBeInstanceOf(FreshError);
      await expect(failure).rejects.toMatchObject({ problem: 'unreadable', message: 'bad image' });
    });

    it('retries on the page what the worker failed to encode', async () => {
      stubPageCanvas();
      const { encodePhoto } = await load();
      const result = encodePhoto(photoFile);
      const worker = FakeWorker.only();
      worker.answer({ id: worker.idOf(0), ok: false, problem: 'failed', message: 'no 2D context' });
      expect(await result).toMatchObject({ width: 1600, height: 1200 });
    });

    it('gives the page a worker’s pending and later photos when the worker fails to start', async () => {
      stubPageCanvas();
      const { encodePhoto } = await load();
      const pending = encodePhoto(photoFile);
      const worker = FakeWorker.only();
      worker.dispatchEvent(new Event('error', { cancelable: true }));
      expect(await pending).toMatchObject({ width: 1600, height: 1200 });
      expect(worker.terminated).toBe(true);
      expect(await encodePhoto(photoFile)).toMatchObject({ width: 1600, height: 1200 });
      expect(FakeWorker.made).toHaveLength(1);
      expect(worker.sent).toHaveLength(1);
    });

    it('encodes on the page when the worker cannot be constructed', async () => {
      stubPageCanvas();
      vi.stubGlobal(
        'Worker',
        class {
          constructor() {
            throw new DOMException('blocked', 'SecurityError');
          }
        },
      );
      const { encodePhoto } = await load();
      expect(await encodePhoto(photoFile)).toMatchObject({ width: 1600, height: 1200 });
    });
  });
});
