/** Errors a route may throw; the envelope plugin turns each into the one error envelope. */
import type { ErrorCode, ErrorType } from '../../contract';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly type: ErrorType,
    readonly reason: ErrorCode,
    readonly fields?: Partial<Record<string, ErrorCode>>,
    readonly headers?: Record<string, string>,
  ) {
    super(reason);
    this.name = 'ApiError';
  }
}

export const badRequest = (reason: ErrorCode, fields?: Partial<Record<string, ErrorCode>>) =>
  new ApiError(400, 'validation', reason, fields);
export const unauthorized = (reason: ErrorCode = 'unauthorized') => new ApiError(401, 'auth', reason);
export const forbidden = (reason: ErrorCode) => new ApiError(403, 'forbidden', reason);
export const notFound = (reason: ErrorCode = 'not_found') => new ApiError(404, 'not_found', reason);
export const conflict = (reason: ErrorCode, statusCode = 409) => new ApiError(statusCode, 'conflict', reason);
/** 415: a body of a media type the route does not take, or bytes that are not what they declare. */
export const unsupportedMediaType = (reason: ErrorCode = 'unsupported_media_type') =>
  new ApiError(415, 'validation', reason);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limited', 'rate_limited', undefined, { 'retry-after': String(retryAfterSeconds) });
