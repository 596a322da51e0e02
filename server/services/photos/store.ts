/**
 * Storing and reading a repair's odometer photo (docs/API.md#photos). A photo is joined to a repair once:
 * the same bytes again (a retry whose answer was lost) are the same photo, other bytes are refused. The
 * bytes are checked, never the declared type alone (picture.ts): a WebP or JPEG of the type declared, no
 * larger than the tablet makes it, that decodes whole; what is stored is that picture less its metadata.
 */
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Photo, PhotoType } from '../../../contract';
import type { Database, DatabaseHandle } from '../../db/client';
import { repairPhotos, repairs } from '../../db/schema';
import { pictureOf } from './picture';
import { photoUrl } from './records';

export type PhotoOutcome = { kind: 'stored' | 'same'; photo: Photo } | { kind: 'not_found' | 'conflict' | 'invalid' };

/** What a photo is, without its bytes: enough to answer a conditional GET, and to stream them. */
export interface StoredPhoto {
  type: PhotoType;
  sha256: string;
  byteSize: number;
}

/**
 * Bytes cross to and from the database as base64 text, never as bytea values: the embedded PGlite
 * turns a bytea into hex and back in JavaScript, on the event loop (a 2 MB photo: about 1 s to store,
 * 250 ms to read), where Node and PostgreSQL do base64 natively (tens of milliseconds).
 */
const toBase64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/**
 * A photo is read this much at a time: each read holds the event loop (on PGlite) and the memory
 * (on both) for one piece, not for the whole photo.
 */
export const PHOTO_READ_CHUNK_BYTES = 256 * 1024;

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
  { db, bulk }: Pick<DatabaseHandle, 'db' | 'bulk'>,
  partnerId: string,
  repairId: string,
  bytes: Uint8Array,
  declaredType: PhotoType,
): Promise<PhotoOutcome> {
  if (!(await partnerOwnsRepair(db, partnerId, repairId))) return { kind: 'not_found' };
  const picture = await pictureOf(bytes, declaredType);
  if (!picture) return { kind: 'invalid' };
  const sha256 = createHash('sha256').update(picture.bytes).digest('hex');
  const inserted = await bulk
    .insert(repairPhotos)
    .values({
      repair_id: repairId,
      bytes: sql`decode(${toBase64(picture.bytes)}, 'base64')`,
      type: picture.type,
      byte_size: picture.bytes.byteLength,
      width: picture.width,
      height: picture.height,
      sha256,
    })
    .onConflictDoNothing({ target: repairPhotos.repair_id })
    .returning({ repair_id: repairPhotos.repair_id });
  const photo = {
    url: photoUrl(repairId),
    bytes: picture.bytes.byteLength,
    width: picture.width,
    height: picture.height,
  };
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
    .select({ type: repairPhotos.type, sha256: repairPhotos.sha256, byteSize: repairPhotos.byte_size })
    .from(repairPhotos)
    .innerJoin(repairs, eq(repairs.id, repairPhotos.repair_id))
    .where(and(eq(repairPhotos.repair_id, repairId), eq(repairs.partner_id, partnerId)))
    .limit(1);
  return row ?? null;
}

/**
 * A photo's bytes, piece by piece (on the database's bulk handle), once findPhoto has said whose it is.
 * The first piece is read before the answer starts (null: its repair was deleted since, a 404); a piece
 * that goes missing after that (deleted while it is sent) ends the stream with an error, which cuts the
 * answer short.
 */
export async function readPhotoPieces(
  bulk: Database,
  repairId: string,
  byteSize: number,
): Promise<AsyncGenerator<Buffer> | null> {
  const read = await readPiece(bulk, repairId, 0);
  if (!read) return null;
  const first: Buffer = read;
  async function* pieces(): AsyncGenerator<Buffer> {
    yield first;
    for (let start = PHOTO_READ_CHUNK_BYTES; start < byteSize; start += PHOTO_READ_CHUNK_BYTES) {
      const piece = await readPiece(bulk, repairId, start);
      if (!piece) throw new Error(`photo of repair ${repairId} gone while it was being sent`);
      yield piece;
    }
  }
  return pieces();
}

async function readPiece(bulk: Database, repairId: string, start: number): Promise<Buffer | null> {
  const [row] = await bulk
    .select({
      // substring counts from 1.
      base64: sql<string>`encode(substring(${repairPhotos.bytes} from ${start + 1} for ${PHOTO_READ_CHUNK_BYTES}), 'base64')`,
    })
    .from(repairPhotos)
    .where(eq(repairPhotos.repair_id, repairId))
    .limit(1);
  return row ? Buffer.from(row.base64, 'base64') : null;
}
