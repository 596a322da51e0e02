/**
 * GET /api/openapi.json: a valid OpenAPI 3.1 document that @fastify/swagger makes from the routes the app
 * registers (server/plugins/openapi.ts), walked here from Fastify's own routes: every route is in it, with
 * its method, the request schemas the route itself declares and checks, and its answers.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, KODE_ID_PATTERN, responseSchemas } from '../../contract/server';
import type { OpenApiDocument } from '../../scripts/api-docs';
import { zodSerializerCompiler } from '../../server/http/serialization';
import { fullPathOf, openApiPlugin } from '../../server/plugins/openapi';
import { FOREIGN_PROBE_PATHS } from '../../server/routes/health';
import { createTestApp, type TestApp } from '../support/test-app';

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
  let document: OpenApiDocument;
  beforeAll(async () => {
    t = await createTestApp();
    document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<OpenApiDocument>();
  });
  afterAll(() => t?.close());

  it('answers the document @fastify/swagger makes of the routes, public and cacheable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(t.app.swagger())));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every route the app registers with its method, and each call of the contract', () => {
    const paths = allEndpoints().map(fullPathOf);
    const routes = t.app.registeredRoutes();
    const registered = routes
      .filter((route) => !route.schema?.hide)
      .map((route) => `${route.method} ${openApiPath(route.url, paths)}`)
      .sort();
    const documented = Object.entries(document.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(registered);
    expect(documented).toEqual(
      allEndpoints()
        .map((endpoint) => `${endpoint.method} ${fullPathOf(endpoint)}`)
        .sort(),
    );
    // Only the usual probe paths of other servers are hidden (no PWA is served here): never an API route.
    const hidden = routes.filter((route) => route.schema?.hide).map((route) => route.url);
    expect(hidden.sort()).toEqual([...FOREIGN_PROBE_PATHS].sort());
  });

  it('describes each request with the schemas its route declares', () => {
    const create = document.paths['/api/partner/repairs']!.post!;
    const body = create.requestBody?.content['application/json']?.schema;
    expect(body?.properties).toMatchObject({ kode_id: { type: 'string', pattern: KODE_ID_PATTERN.source } });
    expect(create.parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'idempotency-key', required: true }),
    );
    const list = document.paths['/api/partner/repairs']!.get!;
    expect(list.parameters?.map((parameter) => `${parameter.in} ${parameter.name}`)).toEqual([
      'query limit',
      'query before',
      'query before_id',
    ]);
    // The pictures' wildcard route names its parameter as the contract does.
    expect(document.paths['/api/images/{file}']!.get!.parameters).toEqual([
      expect.objectContaining({ in: 'path', name: 'file', required: true }),
    ]);
  });

  it("answers with each call's success statuses, and each failure status with its reasons", () => {
    for (const endpoint of allEndpoints()) {
      const responses = document.paths[fullPathOf(endpoint)]![endpoint.method.toLowerCase()]!.responses;
      expect(Object.keys(responses), endpoint.key).toEqual(expect.arrayContaining(Object.keys(endpoint.answers)));
      expect(responses['500']?.description, endpoint.key).toBe('Failure: `internal`.');
    }
    const conflict = document.paths['/api/partner/repairs']!.post!.responses['422']!;
    expect(conflict.description).toBe('Failure: `idempotency_conflict`, `correction_window_closed`.');
    expect(conflict.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Failure' });
  });

  it("has every route write its answers through its call's schemas, failures included", () => {
    const routes = t.app.registeredRoutes();
    for (const endpoint of allEndpoints()) {
      const route = routes.find(
        (candidate) =>
          candidate.method === endpoint.method &&
          openApiPath(candidate.url, [fullPathOf(endpoint)]) === fullPathOf(endpoint),
      );
      expect(Object.keys((route?.schema?.response ?? {}) as object).sort(), endpoint.key).toEqual(
        Object.keys(responseSchemas(endpoint.key)).sort(),
      );
    }
  });

  it('stops the start on a visible route the contract does not name', async () => {
    const app = Fastify({ logger: false });
    app.setSerializerCompiler(zodSerializerCompiler);
    await app.register(openApiPlugin);
    app.get('/api/partner/unnamed', async () => null);
    await expect(app.ready()).rejects.toThrow('GET /api/partner/unnamed is not in contract/endpoints.ts');
    await app.close();
  });
});
