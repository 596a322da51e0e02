/** Cache Storage names shared by the service worker and the page (which empties some at sign-out). */

/** Profile pictures from the API, kept for offline reading: a partner's own data. */
export const PICTURES_CACHE = 'pictures-v1';
