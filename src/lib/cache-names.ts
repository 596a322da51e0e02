/** Cache Storage names shared by the service worker and the page (which empties some at sign-out). */

/** Profile pictures from the API, kept for offline reading: a partner's own data. */
export const PICTURES_CACHE = 'pictures-v1';

/**
 * Sent odometer photos, as GET /partner/repairs/{id}/photo answered them: at most ODOMETER_PHOTOS_MAX
 * of them (each at most about 200 KB), the partner's own data, emptied at sign-out like the pictures.
 */
export const ODOMETER_PHOTOS_CACHE = 'odometer-photos-v1';
export const ODOMETER_PHOTOS_MAX = 100;

/**
 * ZXing's WebAssembly reader (about 1.1 MB), needed only where the browser has no BarcodeDetector for
 * the formats scanned: kept out of the precache, fetched in the background once the worker runs, on
 * such a tablet only (src/features/dashboard/scan/prefetch.ts), so it still scans offline.
 */
export const SCANNER_CODE_CACHE = 'scanner-code-v1';
