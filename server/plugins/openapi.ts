/**
 * GET /api/openapi.json: the API's OpenAPI 3.1 document, made by @fastify/swagger from the routes the app
 * registers. A route's own schemas are the one declaration of its request (body, query, path, headers: what
 * server/http/validation.ts checks) and of its answers (contract/endpoints.ts); zod writes them as JSON
 * Schema here. What a route does not say (its summary, credentials, failures and their reasons) comes from
 * contract/api-reference.ts. `npm run docs:api` renders the document into docs/api-reference.md. The plugin
 * also notes every route registered, so a test can check that none is left out of the document.
 */
import swagger from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import * as z from 'zod/mini';
import { API_PREFIXES, allEndpoints, responseSchemas, type Endpoint, type ErrorCode } from '../../contract/server';
import { API_REFERENCE, COMMON_FAILURE_NOTES, commonFailures, type Credentials } from '../../contract/api-reference';

type JsonSchema = { [key: string]: unknown };

export const OPENAPI_PATH = '/api/openapi.json';

/** Bumped when the contract changes in a way clients must know of. */
const API_VERSION = '1.0.0';

const SECURITY: Record<Credentials, Record<string, string[]>[]> = {
  access_token: [{ accessToken: [] }],
  refresh_cookie: [{ refreshCookie: [], origin: [] }],
  origin: [{ origin: [] }],
  none: [],
};

const SECURITY_SCHEMES = {
  accessToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The access token of a sign-in (AuthSession.access_token); every partner call needs it.',
  },
  refreshCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'refresh_token',
    description: 'HttpOnly, SameSite=Strict, path /api/auth: set by sign-in, registration and refresh.',
  },
  origin: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Origin',
    description: "The page's origin, one of the allowed origins (APP_URL and ALLOWED_ORIGINS).",
  },
} as const;

/**
 * Converts zod schemas with zod's own z.toJSONSchema, collects the named ones (`z.meta({ id })`) it met
 * into `components` and points their references there: each conversion writes them under its own `$defs`.
 */
class SchemaConverter {
  readonly components: Record<string, JsonSchema> = {};
  /** Every route answers its failures with the same envelope: converted once. */
  private readonly done = { input: new WeakMap<object, JsonSchema>(), output: new WeakMap<object, JsonSchema>() };

  convert(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
    const known = this.done[io].get(schema);
    if (known) return known;
    // A request is described as the client sends it (io input: before defaults and coercions), an answer
    // as the server writes it; what JSON Schema cannot say (a refinement) is left unsaid, not refused.
    const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
    const { $schema: _dialect, $defs, ...rest } = converted;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      const named = this.pointToComponents(definition) as JsonSchema;
      const other = this.components[id];
      if (other && JSON.stringify(other) !== JSON.stringify(named)) {
        throw new Error(`two different schemas are named ${id} in the contract`);
      }
      this.components[id] = named;
    }
    const result = this.pointToComponents(rest) as JsonSchema;
    this.done[io].set(schema, result);
    return result;
  }

  private pointToComponents(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.pointToComponents(item));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) =>
        key === '$ref' && typeof item === 'string'
          ? [key, item.replace('#/$defs/', '#/components/schemas/')]
          : [key, this.pointToComponents(item)],
      ),
    );
  }
}

/** `/vehicles/{kode_id}` under the partner base: `getPartnerVehiclesKodeId`. */
function operationIdOf(endpoint: Endpoint): string {
  const words = [endpoint.base, ...endpoint.path.split(/[^A-Za-z0-9]+/)].filter(Boolean);
  return endpoint.method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** The full path of an endpoint as the server serves it: `/api/partner/vehicles/{kode_id}`. */
export function fullPathOf(endpoint: Endpoint): string {
  return API_PREFIXES[endpoint.base] + endpoint.path;
}

/** The contract's calls by route, `METHOD url`: a `{name}` is Fastify's `:name`, or its wildcard `*` at the end. */
function endpointsByRoute(): Map<string, Endpoint> {
  return new Map(
    allEndpoints().flatMap((endpoint) => {
      const path = fullPathOf(endpoint);
      const urls = new Set([path.replace(/\{(\w+)\}/g, ':$1'), path.replace(/\{\w+\}$/, '*')]);
      return [...urls].map((url) => [`${endpoint.method} ${url}`, endpoint] as const);
    }),
  );
}

/** Fastify names a path's wildcard `*`; the document names it as the contract does (`/{file}`). */
function wildcardNamed(params: JsonSchema, endpoint: Endpoint): JsonSchema {
  const { '*': wildcard, ...named } = (params.properties ?? {}) as Record<string, JsonSchema>;
  const name = /\{(\w+)\}$/.exec(endpoint.path)?.[1];
  if (!wildcard || !name) return params;
  return { ...params, properties: { ...named, [name]: wildcard }, required: [name] };
}

/** The call's failures with their reasons, by status in order: its own and those every call shares. */
function failuresOf(endpoint: Endpoint, jsonBody: boolean): Map<number, ErrorCode[]> {
  const failures = new Map<number, ErrorCode[]>();
  for (const source of [API_REFERENCE[endpoint.key].failures, commonFailures(endpoint.key, jsonBody)]) {
    for (const [status, reasons] of Object.entries(source)) {
      const known = failures.get(Number(status)) ?? [];
      failures.set(Number(status), [...known, ...(reasons ?? []).filter((reason) => !known.includes(reason))]);
    }
  }
  return new Map([...failures].sort(([a], [b]) => a - b));
}

/** A media type object per media type: the JSON envelope, or bytes (a picture, a document). */
const mediaTypes = (types: readonly string[], schema: (type: string) => JsonSchema) =>
  Object.fromEntries(types.map((type) => [type, { schema: schema(type) }]));

/** The route's success answers as it declares them, and each failure status (its 4xx, 5xx) with its reasons. */
function responsesOf(converter: SchemaConverter, endpoint: Endpoint, route: FastifySchema) {
  const reference = API_REFERENCE[endpoint.key];
  const declared = (route.response ?? {}) as Record<string, z.ZodMiniType | undefined>;
  const json = (description: string, schema: z.ZodMiniType) => ({
    description,
    content: mediaTypes(['application/json'], () => converter.convert(schema, 'output')),
  });
  const responses: Record<string, JsonSchema> = {};
  for (const [status, schema] of Object.entries(declared)) {
    if (/^\d+$/.test(status) && schema) responses[status] = json('Success: `data` as below.', schema);
  }
  if (reference.content) {
    const { description } = reference.content;
    responses['200'] = { description, content: mediaTypes(reference.content.mediaTypes, () => ({})) };
  }
  for (const [status, reasons] of failuresOf(endpoint, route.body !== undefined)) {
    const failure = declared[status >= 500 ? '5xx' : '4xx'];
    if (!failure) throw new Error(`${endpoint.key} declares no answer for its ${status}: use responseSchemas()`);
    const notes = [COMMON_FAILURE_NOTES[status], reference.failureNotes?.[status]];
    const said = [`Failure: ${reasons.map((reason) => `\`${reason}\``).join(', ')}.`, ...notes];
    responses[String(status)] = json(said.filter(Boolean).join(' '), failure);
  }
  return responses;
}

/** The route's schemas as JSON Schema, and what the contract's reference says of the call. */
function operationOf(converter: SchemaConverter, endpoint: Endpoint, route: FastifySchema): FastifySchema {
  const reference = API_REFERENCE[endpoint.key];
  const input = (schema: unknown) =>
    schema === undefined ? undefined : converter.convert(schema as z.ZodMiniType, 'input');
  const upload = reference.upload;
  return {
    operationId: operationIdOf(endpoint),
    summary: reference.summary,
    tags: [endpoint.base],
    externalDocs: { description: 'How it behaves', url: `API.md#${reference.guide}` },
    security: SECURITY[reference.credentials],
    // A picture's bytes are read by a content-type parser of the route's, not checked by a schema.
    body:
      input(route.body) ??
      (upload && {
        content: mediaTypes(upload.mediaTypes, (type) => ({ description: upload.description, contentMediaType: type })),
      }),
    querystring: input(route.querystring),
    params: route.params === undefined ? undefined : wildcardNamed(input(route.params)!, endpoint),
    headers: input(route.headers),
    response: responsesOf(converter, endpoint, route),
  };
}

/** @fastify/swagger's transform: each visible route becomes the operation of its call in the contract. */
function transformOf(converter: SchemaConverter) {
  const endpoints = endpointsByRoute();
  return ({ schema, url, route }: { schema: FastifySchema | undefined; url: string; route: RouteOptions }) => {
    if (schema?.hide) return { schema, url };
    const endpoint = endpoints.get(`${String(route.method)} ${url}`);
    if (!endpoint) {
      throw new Error(`${String(route.method)} ${url} is not in contract/endpoints.ts: add it, or hide the route`);
    }
    return { url: fullPathOf(endpoint), schema: operationOf(converter, endpoint, schema ?? {}) };
  };
}

export interface RegisteredRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered so far, but the HEAD routes Fastify adds beside GET ones. */
    registeredRoutes(): readonly RegisteredRoute[];
  }
}

export const openApiPlugin = fp(
  async (app) => {
    const routes: RegisteredRoute[] = [];
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        // Fastify adds a HEAD route beside every GET one; the app declares none of its own.
        if (method === 'HEAD') continue;
        routes.push({ method, url: route.url, schema: route.schema });
      }
    });
    app.decorate('registeredRoutes', () => routes);

    const converter = new SchemaConverter();
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'KODE Garage partner portal API',
          version: API_VERSION,
          description:
            'Every answer but a picture and this document is JSON in one envelope: `{code, status: "success", data}` ' +
            'or `{code, status: "error", error}`, the HTTP status equal to `code`. Explained in docs/API.md.',
        },
        components: { securitySchemes: SECURITY_SCHEMES },
      },
      // OpenAPI 3.1 is JSON Schema 2020-12: `const` stays as zod writes it.
      convertConstToEnum: false,
      transform: transformOf(converter),
      // The calls in the contract's order, and the named schemas the conversions met.
      transformObject: (document) => {
        if (!('openapiObject' in document)) throw new Error('the API is described in OpenAPI 3.1 only');
        const { openapiObject } = document;
        const order = allEndpoints().map(fullPathOf);
        const paths = Object.entries(openapiObject.paths ?? {}).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
        const schemas = Object.entries(converter.components).sort(([a], [b]) => a.localeCompare(b));
        return Object.assign(openapiObject, {
          paths: Object.fromEntries(paths),
          components: { ...openapiObject.components, schemas: Object.fromEntries(schemas) },
        });
      },
    });

    // Made once every route is registered (the routes do not change while the server runs), so a
    // route missing from the contract stops the start rather than a reader of the document.
    let document = '';
    app.addHook('onReady', async () => {
      document = JSON.stringify(app.swagger());
    });
    app.get(
      OPENAPI_PATH,
      { schema: { response: responseSchemas('GET api /openapi.json') } },
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=3600').type('application/json; charset=utf-8');
        return document;
      },
    );
  },
  { name: 'openapi' },
);
