import type { Settings } from '../../../../contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/public/settings: the partner conditions (HTML) in French, Arabic and English. */
export function getSettings(signal?: AbortSignal) {
  return apiRequest<Settings>('public', '/settings', { signal });
}
