/** GET /api/partner/repair-types: every repair type with its Arabic and English names. */
import type { RepairType } from '../../../../contract';
import { apiRequest, type ApiResponse } from '../../../lib/api/client';

export function getRepairTypes(): Promise<ApiResponse<RepairType[]>> {
  return apiRequest<RepairType[]>('partner', '/repair-types');
}
