import type { ResetPasswordPayload } from '../../../../contract';
import { apiCall } from '../../../lib/api/call';

/** POST /api/auth/reset-password: 200, or 400 for a bad, used or expired token. */
export function resetPassword(payload: ResetPasswordPayload) {
  return apiCall('POST auth /reset-password', { body: payload });
}
