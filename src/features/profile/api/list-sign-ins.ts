import type * as z from 'zod/mini';
import type { signInRecord } from '../../../../contract';
import { apiCall } from '../../../lib/api/call';

/** One of the partner's recent sign-ins (contract/answers.ts). */
export type SignIn = z.output<typeof signInRecord>;

/** GET /api/auth/sign-ins, with the access token: the partner's recent sign-ins and their devices. */
export function listSignIns() {
  return apiCall('GET auth /sign-ins', { bearer: true });
}
