import { apiCall } from '../../../lib/api/call';

/** DELETE /api/auth/sessions?others=true, with the access token: every device but this one is signed out. */
export function endOtherSessions() {
  return apiCall('DELETE auth /sessions', { query: { others: true }, bearer: true });
}
