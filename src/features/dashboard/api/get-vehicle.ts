/** GET /api/partner/vehicles/{kode_id}: the vehicle and its last known reading; 404 not_found. */
import type { Vehicle } from '../../../../contract';
import { apiRequest, type ApiResponse } from '../../../lib/api/client';

export function getVehicle(kodeId: string): Promise<ApiResponse<Vehicle>> {
  return apiRequest<Vehicle>('partner', `/vehicles/${encodeURIComponent(kodeId)}`);
}
