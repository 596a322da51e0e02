/**
 * The API client's rules (docs/API.md#how-the-pwa-reads-answers): credentials and X-Origin on every call, the bearer
 * token on partner calls, non-JSON answers turned into code 400 / type 'other' with the body as
 * message, and one refresh then one repeat on a 401 from a partner call.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Statistics } from '../../../contract';
import { apiCall } from '../../../src/lib/api/call';
import { loadAnswerSchemas } from '../../../src/lib/api/answer-schemas';
import { apiFile, configureAnswerSchemas, configureApiClient, isNetworkFailure } from '../../../src/lib/api/client';

type FetchArgs = [string, RequestInit];

const statistics: Statistics = {
  repairs_total: 3,
  repairs_this_month: 1,
  vehicles_total: 2,
  last_repair_at: '2025-03-01T08:00:00.000Z',
  implausible_total: 0,
};

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('the API client', () => {
  const fetchMock = vi.fn<(...args: FetchArgs) => Promise<Response>>();
  let token: string | null;
  const refresh = vi.fn<() => Promise<boolean>>();

  beforeEach(() => {
    token = 'token-1';
    fetchMock.mockReset();
    refresh.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    configureAnswerSchemas(loadAnswerSchemas);
    configureApiClient({
      accessToken: () => token,
      language: () => 'ar',
      refresh,
      beforeRequest: async () => undefined,
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends credentials, X-Origin, the language and the bearer token on partner calls', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { code: 200, status: 'success', data: [] }));
    const result = await apiCall('GET partner /repairs');
    expect(result).toEqual({ code: 200, status: 'success', data: [] });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/partner/repairs');
    expect(init.credentials).toBe('include');
    const headers = init.headers as Record<string, string>;
    expect(headers['X-Origin']).toBe(window.location.origin);
    expect(headers['Accept-Language']).toBe('ar');
    expect(headers.Authorization).toBe('Bearer token-1');
  });

  it("gives a file's failure with the wait its Retry-After asks for", async () => {
    fetchMock.mockResolvedValue(
      new Response(
        JSON.stringify({ code: 503, status: 'error', error: { type: 'other', message: 'x', reason: 'unavailable' } }),
        { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '5' } },
      ),
    );
    const answer = await apiFile('partner', '/repairs/00000000-0000-4000-8000-000000000001/photo');
    expect(answer).toMatchObject({ code: 503, status: 'error', error: { reason: 'unavailable' }, retryAfterMs: 5_000 });
  });

  it('never sends the access token to the auth or public bases', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { code: 200, status: 'success', data: {} }));
    await apiCall('GET public /settings');
    await apiCall('POST auth /login', { body: { email: 'a@b.dz' } });
    for (const [, init] of fetchMock.mock.calls) {
      expect((init.headers as Record<string, string>).Authorization).toBeUndefined();
      expect(init.credentials).toBe('include');
    }
    expect(fetchMock.mock.calls[1]![1].body).toBe('{"email":"a@b.dz"}');
  });

  it('turns a non-JSON answer into code 400, type other, with the body text as message', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad Gateway</html>', { status: 502 }));
    expect(await apiCall('GET public /settings')).toEqual({
      code: 400,
      status: 'error',
      error: { type: 'other', message: '<html>Bad Gateway</html>' },
    });
  });

  it('reports no answer at all as a network failure, not as a server refusal', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const result = await apiCall('GET partner /repairs');
    expect(isNetworkFailure(result)).toBe(true);
    expect(result).toMatchObject({ code: 0, status: 'error', error: { type: 'other', reason: 'network' } });
  });

  it('on a 401 from a partner call refreshes once and repeats the call once', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(401, { code: 401, status: 'error', error: { type: 'auth', message: 'x' } }))
      .mockResolvedValueOnce(jsonResponse(200, { code: 200, status: 'success', data: statistics }));
    refresh.mockImplementation(async () => {
      token = 'token-2';
      return true;
    });
    const result = await apiCall('GET partner /statistics');
    expect(result).toEqual({ code: 200, status: 'success', data: statistics });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect((fetchMock.mock.calls[1]![1].headers as Record<string, string>).Authorization).toBe('Bearer token-2');
  });

  it('does not repeat the call when the refresh fails, and repeats at most once', async () => {
    const unauthorized = { code: 401, status: 'error', error: { type: 'auth', message: 'expired' } };
    fetchMock.mockImplementation(async () => jsonResponse(401, unauthorized));
    refresh.mockResolvedValueOnce(false);
    expect(await apiCall('GET partner /statistics')).toEqual(unauthorized);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    fetchMock.mockClear();
    refresh.mockResolvedValue(true);
    expect(await apiCall('GET partner /statistics')).toEqual(unauthorized);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not refresh on a 401 from the auth base (a wrong password is not an expired session)', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(401, { code: 401, status: 'error', error: { type: 'auth', message: 'no' } }),
    );
    await apiCall('POST auth /login', { body: {} });
    expect(refresh).not.toHaveBeenCalled();
  });
});
