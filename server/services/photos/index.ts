export { photoColumns, photoOfRow, photoUrl, type PhotoColumns } from './records';
export { findPhoto, partnerOwnsRepair, readPhotoBytes, storePhoto, type PhotoOutcome, type StoredPhoto } from './store';
