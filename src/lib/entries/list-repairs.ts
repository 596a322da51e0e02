/** GET /api/partner/repairs?limit&before&before_id: the partner's repairs, newest first (docs/API.md#get-repairs). */
import type { RepairRecord } from '../../../contract';
import { apiCall } from '../api/call';
import type { ApiResponse } from '../api/client';

export interface ListRepairsParams {
  limit?: number;
  /** Exclusive cursor: the recorded_at and id of the last item already held. */
  before?: { recordedAt: string; id: string };
}

export function listRepairs(params: ListRepairsParams = {}): Promise<ApiResponse<RepairRecord[]>> {
  const { limit, before } = params;
  return apiCall('GET partner /repairs', {
    query: { limit, before: before?.recordedAt, before_id: before?.id },
  });
}
