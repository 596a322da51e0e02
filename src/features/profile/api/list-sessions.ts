import type * as z from 'zod/mini';
import type { deviceSessionRecord } from '../../../../contract';
import { apiRequest } from '../../../lib/api/client';

/** A device signed in to the partner's account (contract/answers.ts). */
export type DeviceSession = z.output<typeof deviceSessionRecord>;

/** GET /api/auth/sessions, with the access token: the partner's devices signed in, this one marked `current`. */
export function listSessions() {
  return apiRequest<DeviceSession[]>('auth', '/sessions', { bearer: true });
}
