/** GET /api/partner/repairs?limit&before: the partner's repairs, newest first by recorded_at. */
import type { RepairRecord } from '../../../../contract';
import { apiRequest, type ApiResponse } from '../client';

export interface ListRepairsParams {
  limit?: number;
  /** Exclusive cursor: the recorded_at of the last item already held. */
  before?: string;
}

export function listRepairs(params: ListRepairsParams = {}): Promise<ApiResponse<RepairRecord[]>> {
  const query = new URLSearchParams();
  if (params.limit !== undefined) query.set('limit', String(params.limit));
  if (params.before !== undefined) query.set('before', params.before);
  const suffix = query.size > 0 ? `?${query.toString()}` : '';
  return apiRequest<RepairRecord[]>('partner', `/repairs${suffix}`);
}
