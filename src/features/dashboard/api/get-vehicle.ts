/** GET /api/partner/vehicles/{kode_id}: the vehicle and its last known reading; 404 not_found. */
import type { Vehicle } from '../../../../contract';
import { apiCall } from '../../../lib/api/call';
import type { ApiResponse } from '../../../lib/api/client';

export function getVehicle(kodeId: string): Promise<ApiResponse<Vehicle>> {
  return apiCall('GET partner /vehicles/{kode_id}', { params: { kode_id: kodeId } });
}
