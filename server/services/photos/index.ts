export { photoColumns, photoOfRow, photoUrl, type PhotoColumns } from './records';
export {
  findPhoto,
  partnerOwnsRepair,
  readPhotoPieces,
  storePhoto,
  PHOTO_READ_CHUNK_BYTES,
  type PhotoOutcome,
  type StoredPhoto,
} from './store';
