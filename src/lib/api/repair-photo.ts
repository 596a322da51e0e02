/** An odometer photo on the server (docs/API.md#photos): PUT once its repair is stored, GET to show it. */
import type { Photo } from '../../../contract';
import { apiCall, callPath } from './call';
import { apiFile, type ApiResponse, type FileResult } from './client';

/** PUT /api/partner/repairs/{id}/photo: 201 joined, 200 the same bytes again, 409 another photo already. */
export function putRepairPhoto(
  repairId: string,
  photo: Blob,
  options: { timeoutMs?: number } = {},
): Promise<ApiResponse<Photo>> {
  return apiCall('PUT partner /repairs/{id}/photo', { params: { id: repairId }, upload: photo, ...options });
}

/** GET /api/partner/repairs/{id}/photo: the picture's bytes, to the partner who recorded the repair. */
export function getRepairPhoto(repairId: string): Promise<FileResult> {
  return apiFile('partner', callPath('/repairs/{id}/photo', { id: repairId }));
}
