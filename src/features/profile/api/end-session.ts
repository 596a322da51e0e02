import { apiRequest } from '../../../lib/api/client';

/** DELETE /api/auth/sessions/{id}, with the access token: that device is signed out at its next contact. */
export function endSession(id: string) {
  return apiRequest<null>('auth', `/sessions/${encodeURIComponent(id)}`, { method: 'DELETE', bearer: true });
}
