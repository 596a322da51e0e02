/**
 * Whether uploaded bytes are a photo we keep, and the bytes we keep of it (docs/API.md#photos): a
 * WebP or JPEG of the declared type, no larger than the tablet makes it, with its metadata taken out
 * (metadata.ts), that decodes whole. A header alone says nothing of the pixels: 21 bytes can claim to
 * be 1600×1200. The decoding runs on libvips' own threads (sharp), never on the event loop.
 */
import sharp from 'sharp';
import { PHOTO_MAX_SIDE_PX, type PhotoType } from '../../../contract';
import { readImageHeader, type ImageHeader } from './image-header';
import { stripJpegMetadata, stripWebpMetadata } from './metadata';

export interface Picture extends ImageHeader {
  /** The bytes to store: the upload's, less its metadata. */
  bytes: Uint8Array;
}

// libvips keeps recent operations' results in memory (by default up to 50 MB) for a next call on the
// same input; each upload here is decoded once, so that memory would only hold photos already judged.
sharp.cache(false);
// One thread per picture (libvips takes every core by default): the uploads allowed at once
// (plugins/photo-traffic.ts) then never take both cores of a small server from its event loop.
sharp.concurrency(1);

/** Decoded at an eighth of its size or less: every byte of the image data is still read and checked. */
const CHECK_WIDTH_PX = 64;

/** The picture to store, or null when the bytes are not one we take. */
export async function pictureOf(bytes: Uint8Array, declaredType: PhotoType): Promise<Picture | null> {
  const header = readImageHeader(bytes);
  if (!header || header.type !== declaredType || Math.max(header.width, header.height) > PHOTO_MAX_SIDE_PX) {
    return null;
  }
  const kept = header.type === 'image/jpeg' ? stripJpegMetadata(bytes) : stripWebpMetadata(bytes);
  if (!kept || !(await decodesAs(kept, header))) return null;
  return { ...header, bytes: kept };
}

/** Whether the bytes decode, to the end and without error, as a picture of the header's type and size. */
async function decodesAs(bytes: Uint8Array, header: ImageHeader): Promise<boolean> {
  try {
    const image = sharp(bytes, {
      // The strictest: libjpeg only warns of image data that ends early, and fills the rest grey.
      failOn: 'warning',
      limitInputPixels: PHOTO_MAX_SIDE_PX * PHOTO_MAX_SIDE_PX,
      animated: false,
    });
    const { format, width, height } = await image.metadata();
    if (`image/${format}` !== header.type || width !== header.width || height !== header.height) return false;
    await image.resize(CHECK_WIDTH_PX).raw().toBuffer();
    return true;
  } catch {
    return false;
  }
}
