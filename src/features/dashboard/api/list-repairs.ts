/** GET /api/partner/repairs?limit&before&before_id: the partner's repairs, newest first (docs/API.md#get-repairs). */
import type { RepairRecord } from '../../../../contract';
import { apiRequest, type ApiResponse } from '../../../lib/api/client';

export interface ListRepairsParams {
  limit?: number;
  /** Exclusive cursor: the recorded_at and id of the last item already held. */
  before?: { recordedAt: string; id: string };
}

export function listRepairs(params: ListRepairsParams = {}): Promise<ApiResponse<RepairRecord[]>> {
  const query = new URLSearchParams();
  if (params.limit !== undefined) query.set('limit', String(params.limit));
  if (params.before !== undefined) {
    query.set('before', params.before.recordedAt);
    query.set('before_id', params.before.id);
  }
  const suffix = query.size > 0 ? `?${query.toString()}` : '';
  return apiRequest<RepairRecord[]>('partner', `/repairs${suffix}`);
}
