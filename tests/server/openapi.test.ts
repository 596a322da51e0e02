/**
 * GET /api/openapi.json: a valid OpenAPI 3.1 document, generated from the contract, that lists every
 * route the app registers (walked from Fastify's own routes, so one added without its entry in
 * contract/endpoints.ts fails here) with the schemas the route really checks.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, responseSchemas } from '../../contract';
import { API_REFERENCE } from '../../contract/api-reference';
import { buildOpenApiDocument, fullPathOf, type OpenApiDocument } from '../../server/plugins/openapi';
import { FOREIGN_PROBE_PATHS } from '../../server/routes/health';
import { call, createTestApp, type TestApp } from '../support/test-app';

/** Fastify's `/vehicles/:kode_id` and wildcard `/*` as OpenAPI writes them. */
function openApiPath(url: string, endpointPaths: readonly string[]): string {
  const named = url.replace(/:([A-Za-z_]+)/g, '{$1}');
  if (!named.endsWith('/*')) return named;
  const prefix = named.slice(0, -1);
  return (
    endpointPaths.find((path) => path.startsWith(prefix) && /^\{[^}]+\}$/.test(path.slice(prefix.length))) ?? named
  );
}

describe('GET /api/openapi.json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('answers the document generated from the contract, public and cacheable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await call(t.app, 'GET', '/api/openapi.json');
    expect(res.json<OpenApiDocument>().openapi).toBe('3.1.0');
    const result = await new Validator().validate(res.json<Record<string, unknown>>());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every route the app registers, and only those', async () => {
    const endpoints = allEndpoints();
    const documented = endpoints.map((endpoint) => `${endpoint.method} ${fullPathOf(endpoint)}`).sort();
    const paths = endpoints.map(fullPathOf);
    const foreign = new Set<string>(FOREIGN_PROBE_PATHS);
    const registered = t.app
      .registeredRoutes()
      .filter((route) => !foreign.has(route.url))
      .map((route) => `${route.method} ${openApiPath(route.url, paths)}`)
      .sort();
    expect(registered).toEqual(documented);
  });

  it('describes the schemas each route really checks', () => {
    const routes = t.app.registeredRoutes();
    for (const endpoint of allEndpoints()) {
      const route = routes.find(
        (candidate) =>
          candidate.method === endpoint.method &&
          openApiPath(candidate.url, [fullPathOf(endpoint)]) === fullPathOf(endpoint),
      );
      const reference = API_REFERENCE[endpoint.key];
      const schema = route?.schema as Record<string, unknown> | undefined;
      // The picture's name is checked by its route (a wildcard: see server/routes/images.ts), not by a schema.
      const params = endpoint.key === 'GET images /{file}' ? undefined : reference.params;
      expect({ key: endpoint.key, body: schema?.body, query: schema?.querystring, params: schema?.params }).toEqual({
        key: endpoint.key,
        body: reference.body,
        query: reference.query,
        params,
      });
      // Every route writes its answers through the contract's schemas, failures included.
      expect(Object.keys((schema?.response ?? {}) as object).sort(), endpoint.key).toEqual(
        Object.keys(responseSchemas(endpoint.key)).sort(),
      );
    }
  });
});
