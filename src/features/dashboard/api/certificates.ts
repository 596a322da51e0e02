/**
 * The garage's mileage certificates (docs/API.md#mileage-certificates): issued at the owner's request,
 * listed and revoked. They need the server: nothing here is queued or kept on the tablet.
 */
import type { CertificateSummary, IssuedCertificate } from '../../../../contract';
import { apiCall } from '../../../lib/api/call';
import type { ApiResponse } from '../../../lib/api/client';

/** POST /vehicles/{kode_id}/certificates: the garage confirms the owner asked for it. */
export function issueCertificate(kodeId: string): Promise<ApiResponse<IssuedCertificate>> {
  return apiCall('POST partner /vehicles/{kode_id}/certificates', {
    params: { kode_id: kodeId },
    body: { owner_consent: true },
  });
}

/** The certificates this garage issued for one vehicle, newest first. */
export function listVehicleCertificates(kodeId: string): Promise<ApiResponse<CertificateSummary[]>> {
  return apiCall('GET partner /vehicles/{kode_id}/certificates', { params: { kode_id: kodeId } });
}

/** One page of every certificate this garage issued, newest first; `after` is the last one shown. */
export function listCertificates(after?: CertificateSummary): Promise<ApiResponse<CertificateSummary[]>> {
  return apiCall('GET partner /certificates', {
    query: { before: after?.issued_at, before_id: after?.id },
  });
}

export function revokeCertificate(id: string): Promise<ApiResponse<CertificateSummary>> {
  return apiCall('DELETE partner /certificates/{id}', { params: { id } });
}
