import { apiCall } from '../../../lib/api/call';

/** DELETE /api/auth/sessions/{id}, with the access token: that device is signed out at its next contact. */
export function endSession(id: string) {
  return apiCall('DELETE auth /sessions/{id}', { params: { id }, bearer: true });
}
