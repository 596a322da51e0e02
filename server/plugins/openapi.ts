/**
 * The API's OpenAPI 3.1 document, generated from the contract's schemas (contract/endpoints.ts for the
 * answers, contract/api-reference.ts for the requests) and served at GET /api/openapi.json. The same
 * document is rendered into docs/api-reference.md by `npm run docs:api`. The plugin also notes every
 * route the app registers, so a test can check that none is left out of the document.
 */
import type { FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import * as z from 'zod/mini';
import {
  API_PREFIXES,
  allEndpoints,
  failureEnvelope,
  responseSchemas,
  successEnvelope,
  type Endpoint,
  type ErrorCode,
} from '../../contract';
import {
  API_REFERENCE,
  COMMON_FAILURE_NOTES,
  commonFailures,
  type Credentials,
  type EndpointReference,
} from '../../contract/api-reference';

export type JsonSchema = { [key: string]: unknown };

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  externalDocs: { description: string; url: string };
  security: Record<string, string[]>[];
  parameters?: { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: JsonSchema }[];
  requestBody?: { required: true; description?: string; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

export const OPENAPI_PATH = '/api/openapi.json';

/** Bumped when the contract changes in a way clients must know of. */
const API_VERSION = '1.0.0';

const SECURITY: Record<Credentials, Record<string, string[]>[]> = {
  access_token: [{ accessToken: [] }],
  refresh_cookie: [{ refreshCookie: [], origin: [] }],
  origin: [{ origin: [] }],
  none: [],
};

const SECURITY_SCHEMES: Record<string, JsonSchema> = {
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
};

/**
 * Collects the named schemas (`z.meta({ id })`) a conversion met into `components`, and points their
 * references there: each conversion writes them under its own `$defs`.
 */
class SchemaConverter {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
    const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
    const { $schema: _dialect, $defs, ...rest } = converted;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      const named = this.pointToComponents(definition) as JsonSchema;
      const known = this.components[id];
      if (known && JSON.stringify(known) !== JSON.stringify(named)) {
        throw new Error(`two different schemas are named ${id} in the contract`);
      }
      this.components[id] = named;
    }
    return this.pointToComponents(rest) as JsonSchema;
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

function parametersOf(
  converter: SchemaConverter,
  schema: z.ZodMiniType | undefined,
  location: 'path' | 'query' | 'header',
): NonNullable<OpenApiOperation['parameters']> {
  if (!schema) return [];
  const object = converter.convert(schema, 'input');
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
  }));
}

function failuresOf(endpoint: Endpoint): Map<number, ErrorCode[]> {
  const failures = new Map<number, ErrorCode[]>();
  for (const source of [API_REFERENCE[endpoint.key].failures, commonFailures(endpoint.key)]) {
    for (const [status, reasons] of Object.entries(source)) {
      const known = failures.get(Number(status)) ?? [];
      failures.set(Number(status), [...known, ...(reasons ?? []).filter((reason) => !known.includes(reason))]);
    }
  }
  return new Map([...failures].sort(([a], [b]) => a - b));
}

function responsesOf(
  converter: SchemaConverter,
  endpoint: Endpoint,
  failure: JsonSchema,
): OpenApiOperation['responses'] {
  const reference = API_REFERENCE[endpoint.key];
  const responses: OpenApiOperation['responses'] = {};
  for (const [status, data] of Object.entries(endpoint.answers)) {
    responses[status] = {
      description: 'Success: `data` as below.',
      content: { 'application/json': { schema: converter.convert(successEnvelope(data), 'output') } },
    };
  }
  if (reference.content) {
    responses['200'] = {
      description: reference.content.description,
      content: Object.fromEntries(reference.content.mediaTypes.map((type) => [type, { schema: {} }])),
    };
  }
  for (const [status, reasons] of failuresOf(endpoint)) {
    responses[String(status)] = {
      description: [
        `Failure: ${reasons.map((reason) => `\`${reason}\``).join(', ')}.`,
        COMMON_FAILURE_NOTES[status],
        reference.failureNotes?.[status],
      ]
        .filter(Boolean)
        .join(' '),
      content: { 'application/json': { schema: failure } },
    };
  }
  return responses;
}

/** A JSON body by its schema, or bytes (a picture) by their media types. */
function requestBodyOf(
  converter: SchemaConverter,
  reference: EndpointReference,
): Pick<OpenApiOperation, 'requestBody'> {
  if (reference.body) {
    return {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: converter.convert(reference.body, 'input') } },
      },
    };
  }
  if (reference.upload) {
    const { mediaTypes, description } = reference.upload;
    return {
      requestBody: {
        required: true,
        description,
        content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: { contentMediaType: type } }])),
      },
    };
  }
  return {};
}

function operationOf(converter: SchemaConverter, endpoint: Endpoint, failure: JsonSchema): OpenApiOperation {
  const reference = API_REFERENCE[endpoint.key];
  const parameters = [
    ...parametersOf(converter, reference.params, 'path'),
    ...parametersOf(converter, reference.query, 'query'),
    ...parametersOf(converter, reference.headers, 'header'),
  ];
  return {
    operationId: operationIdOf(endpoint),
    summary: reference.summary,
    tags: [endpoint.base],
    externalDocs: { description: 'How it behaves', url: `API.md#${reference.guide}` },
    security: SECURITY[reference.credentials],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...requestBodyOf(converter, reference),
    responses: responsesOf(converter, endpoint, failure),
  };
}

/** The full path of an endpoint as the server serves it: `/api/partner/vehicles/{kode_id}`. */
export function fullPathOf(endpoint: Endpoint): string {
  return API_PREFIXES[endpoint.base] + endpoint.path;
}

export function buildOpenApiDocument(): OpenApiDocument {
  const converter = new SchemaConverter();
  const failure = converter.convert(failureEnvelope, 'output');
  const paths: OpenApiDocument['paths'] = {};
  for (const endpoint of allEndpoints()) {
    const path = fullPathOf(endpoint);
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operationOf(converter, endpoint, failure) };
  }
  const schemas = Object.fromEntries(Object.entries(converter.components).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'KODE Garage partner portal API',
      version: API_VERSION,
      description:
        'Every answer but a picture and this document is JSON in one envelope: `{code, status: "success", data}` ' +
        'or `{code, status: "error", error}`, the HTTP status equal to `code`. Explained in docs/API.md.',
    },
    paths,
    components: { schemas, securitySchemes: SECURITY_SCHEMES },
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

    // Built once: the contract does not change while the server runs.
    const document = JSON.stringify(buildOpenApiDocument());
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
