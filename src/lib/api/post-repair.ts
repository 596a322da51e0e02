/** POST /api/partner/repairs (docs/API.md#post-repairs): idempotent by the Idempotency-Key header. */
import type { RepairEntry, RepairRecord } from '../../../contract';
import { apiCall } from './call';
import type { ApiResponse } from './client';

/** `timeoutMs`: how long to wait for the answer (the outbox's sender gives it its own send timeout). */
export function postRepair(
  idempotencyKey: string,
  entry: RepairEntry,
  options: { timeoutMs?: number } = {},
): Promise<ApiResponse<RepairRecord>> {
  return apiCall('POST partner /repairs', {
    headers: { 'Idempotency-Key': idempotencyKey },
    body: entry,
    ...options,
  });
}
