import type { LoginPayload } from '../../../../contract';
import { apiCall } from '../../../lib/api/call';

/** POST /api/auth/login: the session (access token and user) on success. */
export function login(payload: LoginPayload) {
  return apiCall('POST auth /login', { body: payload });
}
