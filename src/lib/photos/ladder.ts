/**
 * How an odometer photo is made small (docs/API.md#photos), without touching a canvas: the size it is
 * fitted to, then the qualities and scales tried until the encoded picture is small enough. The
 * encoding itself is injected, so the worker (OffscreenCanvas) and the main-thread fallback
 * (HTMLCanvasElement) share this one algorithm, and tests drive it with fake encoders.
 */
import { PHOTO_MAX_BYTES, PHOTO_MAX_SIDE_PX, type PhotoType } from '../../../contract/rules';

/** The size a photo aims under: a tablet keeps many unsent, and the upload may go over a weak signal. */
export const PHOTO_TARGET_BYTES = 200 * 1024;
/** Tried in order at each scale; below 0.42 WebP and JPEG blur the odometer's digits. */
export const QUALITY_STEPS = [0.82, 0.72, 0.62, 0.52, 0.42] as const;
/** Each further scale: about half the pixels every two steps. */
export const SCALE_STEP = 0.75;
/** Below this long side the digits are no longer readable: no smaller scale is tried. */
export const MIN_SIDE_PX = 400;

export interface EncodedPhoto {
  blob: Blob;
  type: PhotoType;
  width: number;
  height: number;
}

export type PhotoProblem = 'unreadable' | 'too_large' | 'failed';

export class PhotoEncodeError extends Error {
  constructor(
    readonly problem: PhotoProblem,
    message: string = problem,
  ) {
    super(message);
    this.name = 'PhotoEncodeError';
  }
}

export interface EncodeRequest {
  width: number;
  height: number;
  type: PhotoType;
  quality: number;
}

/** Draws the picture at this size and encodes it; the blob's type is what the browser really produced. */
export type EncodeAt = (request: EncodeRequest) => Promise<Blob>;

/** The picture's size with its long side at most `maxSide`, never enlarged, each side at least 1 px. */
export function fittedSize(width: number, height: number, maxSide: number = PHOTO_MAX_SIDE_PX) {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * The first encoding at most PHOTO_TARGET_BYTES: each quality in turn, then the same at a smaller scale.
 * WebP first; a browser that answers another type cannot encode WebP (Safari gives PNG), so JPEG from
 * then on. `firstType` lets a caller that already learnt this skip the wasted WebP attempt. When even the
 * smallest scale misses the target, its smallest encoding is kept if the API takes it.
 */
export async function encodeToFit(
  width: number,
  height: number,
  encodeAt: EncodeAt,
  firstType: PhotoType = 'image/webp',
): Promise<EncodedPhoto> {
  let type = firstType;
  let last: EncodedPhoto | null = null;
  // Each scale shrinks the previous one's long side (not the limit: a small picture is not fitted again
  // at its own size), down to the floor.
  for (let maxSide = PHOTO_MAX_SIDE_PX; maxSide >= MIN_SIDE_PX || last === null;) {
    const size = fittedSize(width, height, maxSide);
    for (const quality of QUALITY_STEPS) {
      let blob = await encodeAt({ ...size, type, quality });
      if (blob.type !== type && type === 'image/webp') {
        type = 'image/jpeg';
        blob = await encodeAt({ ...size, type, quality });
      }
      if (blob.type !== type) throw new PhotoEncodeError('failed', `the browser encoded ${blob.type}, not ${type}`);
      last = { blob, type, ...size };
      if (blob.size <= PHOTO_TARGET_BYTES) return last;
    }
    maxSide = Math.max(size.width, size.height) * SCALE_STEP;
  }
  if (last.blob.size <= PHOTO_MAX_BYTES) return last;
  throw new PhotoEncodeError('too_large', `${last.blob.size} bytes at ${last.width}×${last.height}`);
}
