/**
 * What an answer to POST /repairs means for the queued entry (docs/ARCHITECTURE.md#the-offline-model-in-practice):
 * stored (201, or 200 for a replay of the same key), try again later (no answer, timeout, 5xx,
 * 429, or an answer that is not the API's envelope, such as a captive portal's page), wait for
 * the next sign-in (401 after the client's one refresh), or rejected (the server refused it).
 */
import type { RepairRecord } from '../../../contract';
import type { ApiResponse } from '../api/client';
import type { OutboxError } from '../db';

export type TransportResult = ApiResponse<RepairRecord>;

export type SendOutcome =
  | { kind: 'stored'; record: RepairRecord }
  | { kind: 'retry'; error: OutboxError; retryAfterMs?: number }
  | { kind: 'unauthorized'; error: OutboxError }
  | { kind: 'rejected'; error: OutboxError };

/** Statuses that say "not now" rather than "no". */
const TRANSIENT_STATUSES = new Set([0, 408, 425, 429]);

export function classifySend(result: TransportResult): SendOutcome {
  if (result.status === 'success') return { kind: 'stored', record: result.data };
  const error: OutboxError = { code: result.code, message: result.error.message };
  if (result.error.fields && Object.keys(result.error.fields).length > 0) error.fields = result.error.fields;
  if (result.code === 401) return { kind: 'unauthorized', error };
  // The API always names a reason; an error without one did not come from it (a proxy, a Wi-Fi login page).
  const fromApi = typeof result.error.reason === 'string' && result.error.reason !== 'network';
  if (TRANSIENT_STATUSES.has(result.code) || result.code >= 500 || !fromApi) {
    return result.retryAfterMs === undefined
      ? { kind: 'retry', error }
      : { kind: 'retry', error, retryAfterMs: result.retryAfterMs };
  }
  return { kind: 'rejected', error };
}
