/**
 * A repair's photo as its record shows it (docs/API.md#photos): where to fetch it, its size and its
 * dimensions, read beside the repair in the same query; never its bytes.
 */
import { API_PREFIXES, type Photo } from '../../../contract';
import { repairPhotos } from '../../db/schema';

/** The photo's columns in a repair's query (left-joined: all null for a repair without a photo). */
export const photoColumns = {
  photo_sha256: repairPhotos.sha256,
  photo_bytes: repairPhotos.byte_size,
  photo_width: repairPhotos.width,
  photo_height: repairPhotos.height,
};

export interface PhotoColumns {
  photo_sha256: string | null;
  photo_bytes: number | null;
  photo_width: number | null;
  photo_height: number | null;
}

/** Where the partner who recorded a repair fetches its photo. */
export function photoUrl(repairId: string): string {
  return `${API_PREFIXES.partner}/repairs/${repairId}/photo`;
}

export function photoOfRow(row: PhotoColumns & { id: string }): Photo | null {
  if (row.photo_sha256 === null || row.photo_bytes === null || row.photo_width === null || row.photo_height === null)
    return null;
  return { url: photoUrl(row.id), bytes: row.photo_bytes, width: row.photo_width, height: row.photo_height };
}
