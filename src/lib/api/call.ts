/**
 * The API's calls named by their key in contract/endpoints.ts ("GET partner /vehicles/{kode_id}"): the
 * key gives the method, the base and the path, whose `{name}` parameters `params` fills in, and the
 * answer's type comes from the call's own schema, so a caller cannot pick another (docs/API.md#how-the-pwa-reads-answers).
 */
import type { AnswerOf, EnvelopeEndpointKey, PathParams } from '../../../contract/endpoints';
import { apiRequest, type ApiResponse, type RequestOptions } from './client';
import type { ApiBase } from './config';

/** The calls the PWA makes: those answered with the envelope, on the bases it has. */
export type ApiCallKey = Extract<EnvelopeEndpointKey, `${string} ${ApiBase} ${string}`>;

type QueryValue = string | number | boolean | undefined;
type HasParams<K extends ApiCallKey> = [keyof PathParams<K>] extends [never] ? false : true;

export type ApiCallOptions<K extends ApiCallKey> = Omit<RequestOptions, 'method'> & {
  /** Added to the path as its query string; undefined values are left out. */
  query?: Record<string, QueryValue>;
} & (HasParams<K> extends true ? { params: PathParams<K> } : { params?: undefined });

/** The path of a call: its template's parameters filled in (encoded), then the query. */
export function callPath(
  template: string,
  params: Record<string, string> = {},
  query: Record<string, QueryValue> = {},
) {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`No value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
  return search.size > 0 ? `${path}?${search.toString()}` : path;
}

export function apiCall<K extends ApiCallKey>(
  key: K,
  ...[options]: HasParams<K> extends true ? [ApiCallOptions<K>] : [ApiCallOptions<K>?]
): Promise<ApiResponse<AnswerOf<K>>> {
  const [method, base, template] = key.split(' ') as [NonNullable<RequestOptions['method']>, ApiBase, string];
  const { params, query, ...rest } = (options ?? {}) as ApiCallOptions<K> & {
    params?: Record<string, string>;
  };
  return apiRequest<AnswerOf<K>>(base, callPath(template, params, query), { ...rest, method, endpoint: key });
}
