import { apiRequest } from '../../../lib/api/client';

/** DELETE /api/auth/sessions?others=true, with the access token: every device but this one is signed out. */
export function endOtherSessions() {
  return apiRequest<null>('auth', '/sessions?others=true', { method: 'DELETE', bearer: true });
}
