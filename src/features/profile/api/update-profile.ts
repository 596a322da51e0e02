import type { ProfileUpdatePayload, User } from '../../../../contract';
import { apiRequest } from '../../../lib/api/client';

/** PATCH /api/partner/profile: only the changed fields; answers the updated user. */
export function updateProfile(payload: ProfileUpdatePayload) {
  return apiRequest<User>('partner', '/profile', { method: 'PATCH', body: payload });
}
