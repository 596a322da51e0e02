/**
 * The canvas side of the photo encoder: decode the camera's picture, draw it at the size the ladder asks
 * (ladder.ts), encode it. Drawing onto a fresh canvas and encoding its pixels is also what strips the
 * picture's EXIF (GPS position, device, time): nothing of the original file survives.
 */
import type { PhotoType } from '../../../contract/rules';
import { encodeToFit, fittedSize, PhotoEncodeError, type EncodeAt, type EncodedPhoto } from './ladder';

/**
 * The preview's long side: the form shows it at 112 px, three times that covers a tablet's pixel
 * ratio. Drawing a 1,600 px picture down into that box at every paint cost the page's main thread more
 * than the whole encoding did.
 */
export const PREVIEW_SIDE_PX = 336;

/** The photo to keep, and a small picture of it for the form to show. */
export interface PreparedPhoto extends EncodedPhoto {
  preview: Blob;
}

type Context2D = CanvasDrawImage & CanvasImageSmoothing;

/** A canvas to draw on and encode from: an OffscreenCanvas in the worker, a <canvas> on the page. */
export interface Surface {
  canvas: { width: number; height: number };
  context: () => Context2D | null;
  encode: (type: PhotoType, quality: number) => Promise<Blob>;
}

export function offscreenSurface(): Surface {
  const canvas = new OffscreenCanvas(1, 1);
  return {
    canvas,
    context: () => canvas.getContext('2d', { alpha: false }),
    encode: (type, quality) => canvas.convertToBlob({ type, quality }),
  };
}

export function elementSurface(): Surface {
  const canvas = document.createElement('canvas');
  return {
    canvas,
    context: () => canvas.getContext('2d', { alpha: false }),
    encode: (type, quality) =>
      new Promise((resolve, reject) =>
        canvas.toBlob(
          (blob) => (blob ? resolve(blob) : reject(new PhotoEncodeError('failed', 'the canvas gave no picture'))),
          type,
          quality,
        ),
      ),
  };
}

/** What this context's browser encodes: learnt from the first photo, so later ones skip a refused WebP try. */
let workingType: PhotoType = 'image/webp';

async function decode(source: Blob): Promise<ImageBitmap> {
  if (typeof createImageBitmap !== 'function') throw new PhotoEncodeError('failed', 'no createImageBitmap');
  try {
    // EXIF orientation applied to the pixels: the encoded picture has no EXIF left to carry it.
    return await createImageBitmap(source, { imageOrientation: 'from-image' });
  } catch (error) {
    throw new PhotoEncodeError('unreadable', error instanceof Error ? error.message : String(error));
  }
}

/**
 * The picture in `source`, fitted and encoded on a new surface (its own: two photos encoded at once
 * would otherwise draw over each other). Rejects with a PhotoEncodeError only.
 */
export async function encodeOn(newSurface: () => Surface, source: Blob): Promise<PreparedPhoto> {
  const bitmap = await decode(source);
  try {
    const surface = newSurface();
    let drawn = '';
    // Each quality re-encodes the same pixels: the picture is redrawn only when the size changes.
    const encodeAt: EncodeAt = ({ width, height, type, quality }) => {
      if (drawn !== `${width}x${height}`) {
        surface.canvas.width = width;
        surface.canvas.height = height;
        const context = surface.context();
        if (!context) throw new PhotoEncodeError('failed', 'no 2D canvas context');
        context.imageSmoothingQuality = 'high';
        context.drawImage(bitmap, 0, 0, width, height);
        drawn = `${width}x${height}`;
      }
      return surface.encode(type, quality);
    };
    const photo = await encodeToFit(bitmap.width, bitmap.height, encodeAt, workingType);
    workingType = photo.type;
    const small = fittedSize(bitmap.width, bitmap.height, PREVIEW_SIDE_PX);
    const preview = await encodeAt({ ...small, type: photo.type, quality: 0.8 });
    return { ...photo, preview };
  } catch (error) {
    if (error instanceof PhotoEncodeError) throw error;
    throw new PhotoEncodeError('failed', error instanceof Error ? error.message : String(error));
  } finally {
    bitmap.close();
  }
}
