import type { RegisterPayload } from '../../../../contract';
import { apiCall } from '../../../lib/api/call';

/** POST /api/auth/register/partner: creates the partner and signs them in (201). */
export function registerPartner(payload: RegisterPayload) {
  return apiCall('POST auth /register/partner', { body: payload });
}
