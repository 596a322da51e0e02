import { apiCall } from '../../../lib/api/call';

/** GET /api/public/certificates/{id}: the signed certificate, its status now and the readings received since. */
export function getCertificate(id: string, signal?: AbortSignal) {
  return apiCall('GET public /certificates/{id}', { params: { id }, signal });
}
