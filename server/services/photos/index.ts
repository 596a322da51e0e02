export { photoColumns, photoOfRow, photoUrl, type PhotoColumns } from './records';
export { readPhoto, storePhoto, type PhotoOutcome, type StoredPhoto } from './store';
