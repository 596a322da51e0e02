import type { ResetPasswordPayload } from '../../../../contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/auth/reset-password: 200, or 400 for a bad, used or expired token. */
export function resetPassword(payload: ResetPasswordPayload) {
  return apiRequest<null>('auth', '/reset-password', { method: 'POST', body: payload });
}
