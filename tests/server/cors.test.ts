/**
 * A PWA served from another origin listed in ALLOWED_ORIGINS (docs/API.md#headers-and-credentials)
 * calls every endpoint with credentials: the browser's preflight must allow each call's method and the
 * headers the client sends. An origin not listed is not allowed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../contract/endpoint-list';
import type { Endpoint } from '../../contract/endpoints';
import { fullPathOf } from '../../server/plugins/openapi';
import { createTestApp, type TestApp } from '../support/test-app';

const APP_ORIGIN = 'https://portail.garage.example.dz';
const OTHER_ORIGIN = 'https://pwa.garage.example.dz';
const CLIENT_HEADERS = 'authorization,content-type,x-origin,idempotency-key,accept-language';

/** The endpoint's URL with a sample value for each `{parameter}`. */
function urlOf(endpoint: Endpoint): string {
  return fullPathOf(endpoint).replace(/\{[^}]+\}/g, 'sample');
}

function preflight(t: TestApp, endpoint: Endpoint, origin: string) {
  return t.app.inject({
    method: 'OPTIONS',
    url: urlOf(endpoint),
    headers: {
      origin,
      'access-control-request-method': endpoint.method,
      'access-control-request-headers': CLIENT_HEADERS,
    },
  });
}

describe('CORS for another allowed origin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { APP_URL: APP_ORIGIN, ALLOWED_ORIGINS: OTHER_ORIGIN } });
  });
  afterAll(() => t.close());

  it.each(allEndpoints().map((endpoint) => [endpoint.key, endpoint] as const))(
    'allows %s from it, with credentials and the client’s headers',
    async (_key, endpoint) => {
      const res = await preflight(t, endpoint, OTHER_ORIGIN);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(OTHER_ORIGIN);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      const methods = String(res.headers['access-control-allow-methods']).split(/\s*,\s*/);
      expect(methods).toContain(endpoint.method);
      const headers = String(res.headers['access-control-allow-headers'])
        .toLowerCase()
        .split(/\s*,\s*/);
      expect(headers).toEqual(expect.arrayContaining(CLIENT_HEADERS.split(',')));
    },
  );

  it('does not allow an origin that is not listed', async () => {
    // Without Access-Control-Allow-Origin naming it, the browser refuses the call whatever else is sent.
    for (const origin of ['https://elsewhere.example.com', 'null']) {
      const res = await preflight(t, allEndpoints()[0]!, origin);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});
