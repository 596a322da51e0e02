/**
 * The API client (docs/API.md#how-the-pwa-reads-answers). Every call carries credentials and X-Origin; partner calls
 * carry the access token. Every answer becomes an ApiResult: never a throw, never a toast. Callers name
 * the call by its key in contract/endpoints.ts (`apiCall`, ./call.ts), which types its answer.
 *
 * - A non-JSON answer becomes code 400, type 'other', with the body text as message.
 * - No answer at all (offline, timeout) becomes code 0, type 'other', reason 'network', so callers
 *   such as the sync engine can tell "the server said no" from "the server was not reached".
 * - A success whose `data` its call's schema refuses (contract/endpoints.ts) becomes code 502, type
 *   'other', no reason and no words: a failure to try again later, never a record kept on the tablet.
 *   What the schema does not name is dropped.
 * - A 401 on a partner call (or an auth call made with the access token, `bearer`) triggers one session
 *   refresh and, if it succeeds, one repeat. The refresh is told the 401's reason (`session_revoked`: the
 *   session was ended from another device).
 */
import type { ApiFailure, ApiResult, EndpointKey, SuccessAnswers } from '../../../contract';
import { API_BASES, REQUEST_TIMEOUT_MS, type ApiBase } from './config';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Bytes sent as they are, under their own type (a photo), instead of a JSON `body`. */
  upload?: Blob;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** An auth call that carries the access token as partner calls do (the sessions' calls, docs/API.md#sessions). */
  bearer?: boolean;
  /** The browser's HTTP cache for this request ('no-cache': asks the server again even for an answer kept). */
  cache?: RequestCache;
}

/** What the client needs from the session, injected to keep this module free of app state. */
export interface SessionHooks {
  accessToken(): string | null;
  language(): string;
  /**
   * Refreshes the session once; true when a new access token is in place. `failure`: the 401 that asked
   * for it, whose reason the session keeps (a session ended from another device).
   */
  refresh(failure?: ApiFailure): Promise<boolean>;
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

/**
 * The status of a success the contract refuses: "an invalid answer from upstream". It has no reason, as
 * no answer of the API lacks one, so the outbox retries it (src/lib/sync/classify.ts) and the screens
 * say "server error" in the mechanic's language.
 */
export const MALFORMED_ANSWER_CODE = 502;

export function malformedAnswer(): ApiFailure {
  return { code: MALFORMED_ANSWER_CODE, status: 'error', error: { type: 'other', message: '' } };
}

let answerSchemas: AnswerSchemasLoader = () => Promise.reject(new Error('The API client has no answer schemas'));

/**
 * How a call's answer schemas arrive: from contract/endpoints.ts and contract/certificate-answers.ts,
 * loaded on demand by the page (each with the first call that needs it), bundled by the worker.
 */
export type AnswerSchemasLoader = (endpoint: EndpointKey) => Promise<SuccessAnswers>;

/**
 * Injected rather than imported here: the page loads them with its first call (a dynamic import), while
 * the service worker, a classic script, cannot run the loader Vite writes for one and bundles them.
 */
export function configureAnswerSchemas(loader: AnswerSchemasLoader) {
  answerSchemas = loader;
}

/**
 * The success answers the contract gives a call, named by its key. The schemas (with zod's runtime: some
 * 15 KB of gzip script) load with the first call rather than with the app's entry, so no first screen
 * waits for them (docs/ARCHITECTURE.md#start-up); the service worker keeps them for offline starts. Not
 * arrived (offline before the worker cached them), they are asked for again at the next call.
 */
async function answersOf(endpoint: EndpointKey): Promise<SuccessAnswers | ApiFailure> {
  try {
    return await answerSchemas(endpoint);
  } catch (error) {
    // Without the schemas no answer could be used: the same as no answer.
    return networkFailure(error instanceof Error ? error.message : String(error));
  }
}

/** The answer with its `data` as its schema reads it, or the malformed-answer failure. */
function checked<T>(result: ApiResult<T>, answers: SuccessAnswers): ApiResult<T> {
  if (result.status !== 'success') return result;
  const schema = answers[result.code as keyof SuccessAnswers];
  const parsed = schema?.safeParse(result.data);
  // The schema is the type's source (contract/models.ts): what it accepts is a T.
  return parsed?.success ? { ...result, data: parsed.data as T } : malformedAnswer();
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

/** The API's envelope in an answer's text, or null for anything else (a proxy's page, say). */
function envelopeIn(text: string): ApiResult<unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return looksLikeEnvelope(parsed) ? parsed : null;
  } catch {
    return null;
  }
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

async function toResult<T>(response: Response, answers: Promise<SuccessAnswers | ApiFailure>): Promise<ApiResponse<T>> {
  const text = await response.text();
  const schemas = await answers;
  // The schemas could not be loaded (offline before the worker had them): an answer unchecked is no answer.
  if ('status' in schemas) return schemas;
  const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'));
  const hint = retryAfterMs === undefined ? {} : { retryAfterMs };
  try {
    const parsed: unknown = JSON.parse(text);
    if (looksLikeEnvelope(parsed)) return { ...checked(parsed as ApiResult<T>, schemas), ...hint };
  } catch {
    // Not JSON: handled below as docs/API.md#how-the-pwa-reads-answers says.
  }
  return { code: 400, status: 'error', error: { type: 'other', message: text }, ...hint };
}

async function send<T>(
  base: ApiBase,
  path: string,
  options: RequestOptions,
  answers: Promise<SuccessAnswers | ApiFailure>,
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': hooks.language(),
    'X-Origin': globalThis.location.origin,
    ...options.headers,
  };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.upload) headers['Content-Type'] = options.upload.type;
  let response: Response;
  try {
    response = await fetchFromApi(base, path, options, headers);
  } catch (error) {
    return networkFailure(error instanceof Error ? error.message : String(error));
  }
  try {
    return await toResult<T>(response, answers);
  } catch (error) {
    // The connection dropped while the body was arriving.
    return networkFailure(error instanceof Error ? error.message : String(error));
  }
}

/** Partner calls, and the auth calls marked `bearer`, carry the access token (and refresh it once on a 401). */
function carriesToken(base: ApiBase, options: RequestOptions): boolean {
  return base === 'partner' || options.bearer === true;
}

/**
 * Whether a call should go once more: it carried the access token, was answered 401, and a refresh put
 * a new token in place (the refresh is told the 401, whose reason the session keeps).
 */
async function refreshedAfter(
  base: ApiBase,
  options: RequestOptions,
  result: { status: 'success' } | ApiFailure,
): Promise<boolean> {
  return carriesToken(base, options) && result.status === 'error' && result.code === 401 && hooks.refresh(result);
}

/** One request as it goes out: credentials, the access token on partner calls, bounded in time. */
function fetchFromApi(
  base: ApiBase,
  path: string,
  options: RequestOptions,
  headers: Record<string, string>,
): Promise<Response> {
  const token = carriesToken(base, options) ? hooks.accessToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  return fetch(`${API_BASES[base]}${path}`, {
    method: options.method ?? 'GET',
    credentials: 'include',
    headers,
    body: options.upload ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    signal,
    ...(options.cache && { cache: options.cache }),
  });
}

/** A file the API answers (a photo): its bytes, or the failure as apiRequest words one. */
/** A file, or the failure; with the wait the server asked for (Retry-After on 429 and 503). */
export type FileResult = ({ status: 'success'; blob: Blob } | ApiFailure) & { retryAfterMs?: number };

/**
 * GET of a file rather than an envelope: the bytes on a 200; an error is still the API's envelope,
 * read as any other answer. A 401 on a partner call refreshes the session once, as apiRequest does.
 */
export async function apiFile(base: ApiBase, path: string, options: RequestOptions = {}): Promise<FileResult> {
  const attempt = async (): Promise<FileResult> => {
    await hooks.beforeRequest(base, path);
    const headers = { 'Accept-Language': hooks.language(), 'X-Origin': globalThis.location.origin };
    try {
      const response = await fetchFromApi(base, path, options, headers);
      if (response.ok) return { status: 'success', blob: await response.blob() };
      const text = await response.text();
      const failure = envelopeIn(text);
      const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'));
      return {
        ...(failure?.status === 'error'
          ? failure
          : { code: response.status, status: 'error', error: { type: 'other', message: text } }),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      };
    } catch (error) {
      return networkFailure(error instanceof Error ? error.message : String(error));
    }
  };
  const first = await attempt();
  return (await refreshedAfter(base, options, first)) ? attempt() : first;
}

/**
 * One call of the contract, `endpoint` naming it, its path filled in: the transport under `apiCall`
 * (./call.ts), which every caller uses and which types the answer by the call's key.
 */
export async function apiRequest<T>(
  base: ApiBase,
  path: string,
  options: RequestOptions & { endpoint: EndpointKey },
): Promise<ApiResponse<T>> {
  // Looked up while the request goes out, so loading the schemas never holds a request back.
  const answers = answersOf(options.endpoint);
  await hooks.beforeRequest(base, path);
  let result = await send<T>(base, path, options, answers);
  if (await refreshedAfter(base, options, result)) result = await send<T>(base, path, options, answers);
  return result;
}
