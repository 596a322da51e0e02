/** POST /api/partner/repairs (docs/API.md#post-repairs): idempotent by the Idempotency-Key header. */
import type { RepairEntry, RepairRecord } from '../../../contract';
import { apiRequest, type ApiResponse } from './client';

export function postRepair(idempotencyKey: string, entry: RepairEntry): Promise<ApiResponse<RepairRecord>> {
  return apiRequest<RepairRecord>('partner', '/repairs', {
    method: 'POST',
    headers: { 'Idempotency-Key': idempotencyKey },
    body: entry,
  });
}
