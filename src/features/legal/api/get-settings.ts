import { apiCall } from '../../../lib/api/call';

/** GET /api/public/settings: the partner conditions (HTML) in French, Arabic and English. */
export function getSettings(signal?: AbortSignal) {
  return apiCall('GET public /settings', { signal });
}
