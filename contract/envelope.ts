/**
 * The one response envelope of every API answer (docs/API.md#the-envelope). Its schemas are in
 * ./answers.ts (successEnvelope, failureEnvelope); these are the types both sides use.
 */
import type * as z from 'zod/mini';
import type { errorBody } from './answers';

/**
 * The error of a failure. On the wire `reason` is one of the ErrorCode values; the PWA's client also
 * makes failures of its own (no answer at all: reason 'network'), hence the wider type here.
 */
export type ApiErrorBody = Omit<z.output<typeof errorBody>, 'reason'> & { reason?: string };

export interface ApiSuccess<T> {
  code: number;
  status: 'success';
  data: T;
}

export interface ApiFailure {
  code: number;
  status: 'error';
  error: ApiErrorBody;
}

export type ApiResult<T> = ApiSuccess<T> | ApiFailure;
