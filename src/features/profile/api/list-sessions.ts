import type * as z from 'zod/mini';
import type { deviceSessionRecord } from '../../../../contract';
import { apiCall } from '../../../lib/api/call';

/** A device signed in to the partner's account (contract/answers.ts). */
export type DeviceSession = z.output<typeof deviceSessionRecord>;

/** GET /api/auth/sessions, with the access token: the partner's devices signed in, this one marked `current`. */
export function listSessions() {
  return apiCall('GET auth /sessions', { bearer: true });
}
