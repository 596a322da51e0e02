/**
 * The API client (docs/API.md#how-the-pwa-reads-answers). Every call carries credentials and X-Origin; partner calls
 * carry the access token. Every answer becomes an ApiResult: never a throw, never a toast.
 *
 * - A non-JSON answer becomes code 400, type 'other', with the body text as message.
 * - No answer at all (offline, timeout) becomes code 0, type 'other', reason 'network', so callers
 *   such as the sync engine can tell "the server said no" from "the server was not reached".
 * - A 401 on a partner call triggers one session refresh and, if it succeeds, one repeat.
 */
import type { ApiFailure, ApiResult } from '../../../contract';
import { API_BASES, REQUEST_TIMEOUT_MS, type ApiBase } from './config';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** What the client needs from the session, injected to keep this module free of app state. */
export interface SessionHooks {
  accessToken(): string | null;
  language(): string;
  /** Refreshes the session once; true when a new access token is in place. */
  refresh(): Promise<boolean>;
  /** Runs before every request goes out (a sign-out still owed to the server goes first). */
  beforeRequest(base: ApiBase, path: string): Promise<void>;
}

let hooks: SessionHooks = {
  accessToken: () => null,
  language: () => 'fr',
  refresh: async () => false,
  beforeRequest: async () => undefined,
};

export function configureApiClient(sessionHooks: SessionHooks) {
  hooks = sessionHooks;
}

export const NETWORK_REASON = 'network';

export function isNetworkFailure(result: ApiResult<unknown>): boolean {
  return result.status === 'error' && result.code === 0;
}

function networkFailure(message: string): ApiFailure {
  return { code: 0, status: 'error', error: { type: 'other', reason: NETWORK_REASON, message } };
}

function looksLikeEnvelope(value: unknown): value is ApiResult<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    'status' in value &&
    (value.status === 'success' || value.status === 'error') &&
    'code' in value
  );
}

/**
 * An answer, plus how long the server asked us to wait before trying again (Retry-After on 429
 * and 503), which the envelope itself does not carry. The sync engine honours it.
 */
export type ApiResponse<T> = ApiResult<T> & { retryAfterMs?: number };

/** Retry-After is either a number of seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

async function toResult<T>(response: Response): Promise<ApiResponse<T>> {
  const text = await response.text();
  const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'));
  const hint = retryAfterMs === undefined ? {} : { retryAfterMs };
  try {
    const parsed: unknown = JSON.parse(text);
    if (looksLikeEnvelope(parsed)) return { ...(parsed as ApiResult<T>), ...hint };
  } catch {
    // Not JSON: handled below as docs/API.md#how-the-pwa-reads-answers says.
  }
  return { code: 400, status: 'error', error: { type: 'other', message: text }, ...hint };
}

async function send<T>(base: ApiBase, path: string, options: RequestOptions): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': hooks.language(),
    'X-Origin': globalThis.location.origin,
    ...options.headers,
  };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const token = base === 'partner' ? hooks.accessToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(`${API_BASES[base]}${path}`, {
      method: options.method ?? 'GET',
      credentials: 'include',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
    });
  } catch (error) {
    return networkFailure(error instanceof Error ? error.message : String(error));
  }
  try {
    return await toResult<T>(response);
  } catch (error) {
    // The connection dropped while the body was arriving.
    return networkFailure(error instanceof Error ? error.message : String(error));
  }
}

export async function apiRequest<T>(
  base: ApiBase,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  await hooks.beforeRequest(base, path);
  const result = await send<T>(base, path, options);
  if (base !== 'partner' || result.code !== 401) return result;
  if (!(await hooks.refresh())) return result;
  return send<T>(base, path, options);
}
