import type { ForgotPasswordPayload } from '../../../../contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/auth/forgot-password: 200 whether or not the address has an account. */
export function forgotPassword(payload: ForgotPasswordPayload) {
  return apiRequest<null>('auth', '/forgot-password', { method: 'POST', body: payload });
}
