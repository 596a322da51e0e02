/**
 * The keys that sign mileage certificates (docs/API.md#get-certificate-keys): a JSON Web Key Set, not the
 * API's envelope, so it is fetched as a document and read with its own schema. Only a certificate's page
 * imports this module, so the key set's schema never weighs on a first load.
 */
import type { ApiResult } from '../../../contract';
import { certificateKeySetRecord, type CertificateKeySet } from '../../../contract/certificate-keys';
import { apiFile, malformedAnswer } from './client';

/** The document's JSON, or undefined when it is none (which the schema then refuses). */
async function jsonOf(blob: Blob): Promise<unknown> {
  try {
    return JSON.parse(await blob.text()) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * GET /api/public/certificate-keys, never a throw: the key set, or the failure as the API client words
 * one (code 0 unreached, 502 for a document the schema refuses). `fresh` asks the server again past the
 * browser's cache (the set is cached an hour): a key configured since may sign a certificate.
 */
export async function getCertificateKeys(
  options: { fresh?: boolean; signal?: AbortSignal } = {},
): Promise<ApiResult<CertificateKeySet>> {
  const file = await apiFile('public', '/certificate-keys', {
    signal: options.signal,
    ...(options.fresh && { cache: 'no-cache' }),
  });
  if (file.status !== 'success') return file;
  const parsed = certificateKeySetRecord.safeParse(await jsonOf(file.blob));
  return parsed.success ? { code: 200, status: 'success', data: parsed.data } : malformedAnswer();
}
