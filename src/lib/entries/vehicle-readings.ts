/** GET /api/partner/vehicles/{kode_id}/readings: every garage's standing readings, newest first; 404 vehicle_not_found. */
import type { VehicleReading } from '../../../contract';
import { apiCall } from '../api/call';
import type { ApiResponse } from '../api/client';

export function getVehicleReadings(kodeId: string): Promise<ApiResponse<VehicleReading[]>> {
  return apiCall('GET partner /vehicles/{kode_id}/readings', { params: { kode_id: kodeId } });
}
