/**
 * What an answer to POST /repairs means for the queued entry (docs/ARCHITECTURE.md#the-offline-model-in-practice):
 * stored (201, or 200 for a replay of the same key), try again later (no answer, timeout, 5xx,
 * 429, or an answer that is not the API's envelope, such as a captive portal's page), wait for
 * the next sign-in (401 after the client's one refresh), or rejected (the server refused it).
 */
import type { RepairRecord } from '../../../contract';
import { isNetworkFailure, type ApiResponse } from '../api/client';
import type { OutboxEntry, OutboxError } from '../db';

/** What the transport (the API client) resolves to: a repair's record, or a photo's for a photo's upload. */
export type TransportResult<T = RepairRecord> = ApiResponse<T>;

/** A transport's failure, whatever it would have answered on success. */
export type TransportFailure = Extract<TransportResult<never>, { status: 'error' }>;

/** How one send ended: nothing came back (offline, timeout, a dropped connection), or an answer did. */
export type Delivery<T = RepairRecord> =
  { kind: 'network'; message: string } | { kind: 'answered'; answer: TransportResult<T> };

export type SendOutcome<T = RepairRecord> =
  | { kind: 'stored'; record: T }
  | { kind: 'retry'; error: OutboxError; retryAfterMs?: number }
  | { kind: 'unauthorized'; error: OutboxError }
  | { kind: 'rejected'; error: OutboxError };

/** How a failure without an answer is stored in an entry's lastError (see OutboxError in db.ts). */
const NOT_REACHED = 0;

/** Statuses that say "not now" rather than "no". */
const TRANSIENT_STATUSES = new Set([408, 425, 429]);

/** The API client says "no answer" with its own failure value; the sender names it. */
export function deliveryOf<T>(result: TransportResult<T>): Delivery<T> {
  if (result.status === 'error' && isNetworkFailure(result)) return { kind: 'network', message: result.error.message };
  return { kind: 'answered', answer: result };
}

/** True when the entry's last attempt got no answer: the one kind of backoff that "back online" cuts short. */
export function lastAttemptFoundNoNetwork(row: Pick<OutboxEntry, 'lastError'>): boolean {
  return row.lastError?.code === NOT_REACHED;
}

export function classifySend<T>(delivery: Delivery<T>): SendOutcome<T> {
  if (delivery.kind === 'network') return { kind: 'retry', error: { code: NOT_REACHED, message: delivery.message } };
  const { answer } = delivery;
  if (answer.status === 'success') return { kind: 'stored', record: answer.data };
  const error: OutboxError = { code: answer.code, message: answer.error.message };
  // The reason code travels (a hand-over file carries codes only) and lets the screens word it anew.
  if (typeof answer.error.reason === 'string') error.reason = answer.error.reason;
  if (answer.error.fields && Object.keys(answer.error.fields).length > 0) error.fields = answer.error.fields;
  if (answer.code === 401) return { kind: 'unauthorized', error };
  // The API always names a reason; an error without one did not come from it (a proxy, a Wi-Fi login page).
  const fromApi = typeof answer.error.reason === 'string';
  if (TRANSIENT_STATUSES.has(answer.code) || answer.code >= 500 || !fromApi) {
    return answer.retryAfterMs === undefined
      ? { kind: 'retry', error }
      : { kind: 'retry', error, retryAfterMs: answer.retryAfterMs };
  }
  return { kind: 'rejected', error };
}
