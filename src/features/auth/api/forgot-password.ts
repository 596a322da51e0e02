import type { ForgotPasswordPayload } from '../../../../contract';
import { apiCall } from '../../../lib/api/call';

/** POST /api/auth/forgot-password: 200 whether or not the address has an account. */
export function forgotPassword(payload: ForgotPasswordPayload) {
  return apiCall('POST auth /forgot-password', { body: payload });
}
