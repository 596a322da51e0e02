/** Cache Storage names shared by the service worker and the page (which empties some at sign-out). */

/** Profile pictures from the API, kept for offline reading: a partner's own data. */
export const PICTURES_CACHE = 'pictures-v1';

/**
 * Sent odometer photos, as GET /partner/repairs/{id}/photo answered them: at most ODOMETER_PHOTOS_MAX
 * of them (each at most about 200 KB), the partner's own data, emptied at sign-out like the pictures.
 */
export const ODOMETER_PHOTOS_CACHE = 'odometer-photos-v1';
export const ODOMETER_PHOTOS_MAX = 100;
