import type { ProfileUpdatePayload } from '../../../../contract';
import { apiCall } from '../../../lib/api/call';

/** PATCH /api/partner/profile: only the changed fields; answers the updated user. */
export function updateProfile(payload: ProfileUpdatePayload) {
  return apiCall('PATCH partner /profile', { body: payload });
}
