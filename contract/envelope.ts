/** The one response envelope of every API answer (docs/API.md#the-envelope). */
export const ERROR_TYPES = [
  'validation',
  'auth',
  'forbidden',
  'not_found',
  'conflict',
  'rate_limited',
  'other',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export interface ApiErrorBody {
  type: ErrorType;
  /** Human-readable, in the language the request asked for (Accept-Language). */
  message: string;
  /** Machine-readable reason, one of the ErrorCode values, for clients that translate themselves. */
  reason?: string;
  /** Per-field messages for validation errors. */
  fields?: Record<string, string>;
}

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

export function isSuccess<T>(result: ApiResult<T>): result is ApiSuccess<T> {
  return result.status === 'success';
}
