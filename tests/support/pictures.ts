/**
 * Real pictures for the server's photo tests, made by sharp (libvips): the server decodes what it
 * is sent, so a header with stand-in data (tests/support/photos.ts) is refused there now. A `variant`
 * changes the colour, so two variants are two different photos; `noise` makes a picture as heavy as
 * a camera's (a flat colour compresses to a few KB whatever its size).
 */
import sharp, { type Exif } from 'sharp';

export interface PictureOptions {
  variant?: number;
  /** Random pixels (seeded by nothing: each call differs) instead of a flat colour. */
  noise?: boolean;
  quality?: number;
}

function canvas(width: number, height: number, { variant = 0, noise = false }: PictureOptions) {
  const background = { r: (variant * 37) % 256, g: (variant * 91 + 60) % 256, b: (variant * 53 + 120) % 256 };
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background,
      ...(noise ? { noise: { type: 'gaussian' as const, mean: 128, sigma: 60 } } : {}),
    },
  });
}

export async function realJpeg(width: number, height: number, options: PictureOptions = {}): Promise<Buffer> {
  return canvas(width, height, options)
    .jpeg({ quality: options.quality ?? 80 })
    .toBuffer();
}

export async function realWebp(width: number, height: number, options: PictureOptions = {}): Promise<Buffer> {
  return canvas(width, height, options)
    .webp({ quality: options.quality ?? 80 })
    .toBuffer();
}

/** What a phone's camera writes about a photo: who took it, on what, and where (GPS). */
export const CAMERA_EXIF: Exif = {
  IFD0: { Artist: 'Karim Benali', Make: 'TabletCam', Model: 'Workshop 7' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '36/1 43/1 16/1', GPSLongitudeRef: 'E', GPSLongitude: '3/1 8/1 39/1' },
};
export const CAMERA_XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>Karim Benali</dc:creator>' +
  '</rdf:Description></rdf:RDF></x:xmpmeta>';

/** A picture of the type with the camera's EXIF (GPS and Artist) and XMP in it. */
export async function pictureWithMetadata(type: 'jpeg' | 'webp', width: number, height: number): Promise<Buffer> {
  const image = canvas(width, height, { variant: 5 }).withExif(CAMERA_EXIF).withXmp(CAMERA_XMP);
  return type === 'jpeg' ? image.jpeg({ quality: 80 }).toBuffer() : image.webp({ quality: 80 }).toBuffer();
}
