/**
 * Storing and reading a repair's odometer photo (docs/API.md#photos). A photo is joined to a repair once:
 * the same bytes again (a retry whose answer was lost) are the same photo, other bytes are refused. The
 * bytes are checked, never the declared type alone: a WebP or JPEG whose header gives its dimensions,
 * of the type declared, no larger than the tablet makes it.
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { PHOTO_MAX_SIDE_PX, type Photo, type PhotoType } from '../../../contract';
import type { Database } from '../../db/client';
import { repairPhotos, repairs } from '../../db/schema';
import { readImageHeader } from './image-header';
import { photoUrl } from './records';

export type PhotoOutcome = { kind: 'stored' | 'same'; photo: Photo } | { kind: 'not_found' | 'conflict' | 'invalid' };

/** What a photo is, without its bytes: enough to answer a conditional GET. */
export interface StoredPhoto {
  type: PhotoType;
  sha256: string;
}

/** Whether the repair is the partner's: asked before an upload's body is read, and again as it is stored. */
export async function partnerOwnsRepair(db: Database, partnerId: string, repairId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: repairs.id })
    .from(repairs)
    .where(and(eq(repairs.id, repairId), eq(repairs.partner_id, partnerId)))
    .limit(1);
  return row !== undefined;
}

/** Joins the photo to the partner's repair: one INSERT, so a process killed meanwhile leaves all of it or none. */
export async function storePhoto(
  db: Database,
  partnerId: string,
  repairId: string,
  bytes: Uint8Array,
  declaredType: PhotoType,
): Promise<PhotoOutcome> {
  if (!(await partnerOwnsRepair(db, partnerId, repairId))) return { kind: 'not_found' };
  const header = readImageHeader(bytes);
  if (!header || header.type !== declaredType || Math.max(header.width, header.height) > PHOTO_MAX_SIDE_PX) {
    return { kind: 'invalid' };
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const inserted = await db
    .insert(repairPhotos)
    .values({
      repair_id: repairId,
      bytes,
      type: header.type,
      byte_size: bytes.byteLength,
      width: header.width,
      height: header.height,
      sha256,
    })
    .onConflictDoNothing({ target: repairPhotos.repair_id })
    .returning({ repair_id: repairPhotos.repair_id });
  const photo = { url: photoUrl(repairId), bytes: bytes.byteLength, width: header.width, height: header.height };
  if (inserted.length > 0) return { kind: 'stored', photo };

  const [existing] = await db
    .select({ sha256: repairPhotos.sha256 })
    .from(repairPhotos)
    .where(eq(repairPhotos.repair_id, repairId))
    .limit(1);
  // Gone between the two statements: its repair was deleted (its partner's account closed).
  if (!existing) return { kind: 'not_found' };
  return existing.sha256 === sha256 ? { kind: 'same', photo } : { kind: 'conflict' };
}

/**
 * The photo of one of the partner's repairs, without its bytes, or null (none, or another partner's):
 * a tablet asking again with the photo's ETag is answered from this alone.
 */
export async function findPhoto(db: Database, partnerId: string, repairId: string): Promise<StoredPhoto | null> {
  const [row] = await db
    .select({ type: repairPhotos.type, sha256: repairPhotos.sha256 })
    .from(repairPhotos)
    .innerJoin(repairs, eq(repairs.id, repairPhotos.repair_id))
    .where(and(eq(repairPhotos.repair_id, repairId), eq(repairs.partner_id, partnerId)))
    .limit(1);
  return row ?? null;
}

/** A photo's bytes, once findPhoto has said whose it is (null if its repair was deleted since). */
export async function readPhotoBytes(db: Database, repairId: string): Promise<Uint8Array | null> {
  const [row] = await db
    .select({ bytes: repairPhotos.bytes })
    .from(repairPhotos)
    .where(eq(repairPhotos.repair_id, repairId))
    .limit(1);
  return row?.bytes ?? null;
}
