import type { AuthSession, LoginPayload } from '../../../../contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/auth/login: the session (access token and user) on success. */
export function login(payload: LoginPayload) {
  return apiRequest<AuthSession>('auth', '/login', { method: 'POST', body: payload });
}
