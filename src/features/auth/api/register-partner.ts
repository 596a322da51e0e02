import type { AuthSession, RegisterPayload } from '../../../../contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/auth/register/partner: creates the partner and signs them in (201). */
export function registerPartner(payload: RegisterPayload) {
  return apiRequest<AuthSession>('auth', '/register/partner', { method: 'POST', body: payload });
}
