/** GET /api/partner/repair-types: every repair type with its Arabic and English names. */
import type { RepairType } from '../../../../contract';
import { apiCall } from '../../../lib/api/call';
import type { ApiResponse } from '../../../lib/api/client';

export function getRepairTypes(): Promise<ApiResponse<RepairType[]>> {
  return apiCall('GET partner /repair-types');
}
