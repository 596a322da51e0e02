/** GET /api/partner/statistics: the partner's totals (docs/API.md#get-statistics). */
import type { Statistics } from '../../../../contract';
import { apiCall } from '../../../lib/api/call';
import type { ApiResponse } from '../../../lib/api/client';

export function getStatistics(): Promise<ApiResponse<Statistics>> {
  return apiCall('GET partner /statistics');
}
