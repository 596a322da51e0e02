/**
 * `npm run docs:api`: writes docs/api-reference.md from the OpenAPI document the server serves at
 * GET /api/openapi.json (server/plugins/openapi.ts), itself made from the routes' own schemas.
 * tests/docs/api-reference.test.ts renders it again (`--stdout`) and fails when the file is stale.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { anchorOf } from './markdown-anchor';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import type { Database, DatabaseHandle } from '../server/db/client';
import * as schema from '../server/db/schema';
import { OPENAPI_PATH } from '../server/plugins/openapi';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const API_REFERENCE_FILE = path.join(ROOT, 'docs', 'api-reference.md');
const API_REFERENCE_COMMAND = 'npm run docs:api';

type JsonSchema = { [key: string]: unknown };
type Content = Record<string, { schema: JsonSchema }>;

/** What this renderer reads of the document. */
interface Operation {
  summary: string;
  externalDocs: { url: string };
  security: Record<string, string[]>[];
  parameters?: {
    name: string;
    in: 'path' | 'query' | 'header';
    required: boolean;
    description?: string;
    schema: JsonSchema;
  }[];
  requestBody?: { content: Content };
  responses: Record<string, { description: string; content?: Content }>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** The document names routes, not data: the app is built on a database it never connects to. */
function unconnectedDatabase(): DatabaseHandle {
  const db = drizzle.mock({ schema }) as unknown as Database;
  return { db, bulk: db, kind: 'postgres', migrate: async () => undefined, close: async () => undefined };
}

/** The document GET /api/openapi.json answers, from the app the server runs (its own data folder, gone after). */
export async function servedDocument(): Promise<OpenApiDocument> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-docs-'));
  try {
    const env = { NODE_ENV: 'development', LOG_LEVEL: 'silent', DATA_DIR: dataDir, MIGRATE_ON_START: 'false' };
    const app = await buildApp({ config: loadConfig(env), database: unconnectedDatabase() });
    try {
      return (await app.inject({ method: 'GET', url: OPENAPI_PATH })).json<OpenApiDocument>();
    } finally {
      await app.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (value: unknown) => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
const schemaName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
const schemaLink = (ref: string) => `[${schemaName(ref)}](#${anchorOf(schemaName(ref))})`;

/** The integer bounds zod writes for every `z.int()` say nothing to a reader. */
const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;
const MAX_SHOWN_PATTERN = 40;

function typeOf(schema: JsonSchema): string {
  if (typeof schema.$ref === 'string') return schemaLink(schema.$ref);
  if (schema.const !== undefined) return code(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(code).join(' or ');
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return variants.map(typeOf).join(' or ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return types.map((type) => singleTypeOf(schema, type)).join(' or ');
}

function singleTypeOf(schema: JsonSchema, type: string | undefined): string {
  switch (type) {
    case 'array':
      return `array of ${typeOf((schema.items ?? {}) as JsonSchema)}`;
    case 'string':
      return typeof schema.format === 'string' ? `string (${schema.format})` : 'string';
    case 'object':
      return typeof schema.additionalProperties === 'object'
        ? `object of ${typeOf(schema.additionalProperties as JsonSchema)}`
        : 'object';
    case undefined:
      return 'any';
    default:
      return type;
  }
}

/** What a request schema demands beyond its type. */
function rulesOf(schema: JsonSchema): string {
  const rules: string[] = [];
  const bound = (value: unknown) => typeof value === 'number' && Math.abs(value) !== SAFE_INTEGER;
  if (bound(schema.minimum)) rules.push(`≥ ${String(schema.minimum)}`);
  if (bound(schema.maximum)) rules.push(`≤ ${String(schema.maximum)}`);
  if (schema.minLength === 1) rules.push('not empty');
  else if (typeof schema.minLength === 'number' && schema.minLength > 1)
    rules.push(`at least ${schema.minLength} characters`);
  if (typeof schema.maxLength === 'number') rules.push(`at most ${schema.maxLength} characters`);
  // Long patterns (dates, UUIDs, e-mail addresses) are already said by the format.
  if (typeof schema.pattern === 'string' && schema.format === undefined && schema.pattern.length <= MAX_SHOWN_PATTERN) {
    rules.push(`matches ${code(schema.pattern)}`);
  }
  if (schema.default !== undefined) rules.push(`default ${code(JSON.stringify(schema.default))}`);
  if (typeof schema.description === 'string') rules.push(schema.description);
  return rules.join('; ');
}

interface Field {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

/** An object's fields, those of a nested object (not a named record) as `parent.child`. */
function fieldsOf(schema: JsonSchema, prefix = ''): Field[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).flatMap(([name, property]) => {
    const field = { name: prefix + name, schema: property, required: required.has(name) };
    return property.type === 'object' && property.properties
      ? [field, ...fieldsOf(property, `${field.name}.`)]
      : [field];
  });
}

function fieldTable(fields: Field[], last: 'Rules' | 'Description'): string[] {
  return [
    `| Field | Type | Required | ${last} |`,
    '|---|---|---|---|',
    ...fields.map(
      (field) =>
        `| ${code(field.name)} | ${cell(typeOf(field.schema))} | ${field.required ? 'yes' : 'no'} | ${cell(
          last === 'Rules' ? rulesOf(field.schema) : String(field.schema.description ?? ''),
        )} |`,
    ),
  ];
}

const CREDENTIALS: Record<string, string> = {
  accessToken: '`Authorization: Bearer <access token>`',
  refreshCookie: 'the refresh cookie',
  origin: 'an allowed `X-Origin`',
};

function credentialsOf(operation: Operation): string {
  const names = operation.security.flatMap((requirement) => Object.keys(requirement));
  return names.length === 0 ? 'none' : names.map((name) => CREDENTIALS[name] ?? name).join(' and ');
}

function answerOf(response: Operation['responses'][string]): string {
  const [mediaType, content] = Object.entries(response.content ?? {})[0] ?? [];
  const schema = content?.schema ?? {};
  if (typeof schema.$ref === 'string')
    return `${schemaLink(schema.$ref)}: ${response.description.replace(/^Failure: /, '')}`;
  const data = (schema.properties as Record<string, JsonSchema> | undefined)?.data;
  if (data) return `\`data\`: ${typeOf(data)}`;
  const types = Object.keys(response.content ?? {}).map(code);
  return `${response.description} (${types.join(', ') || code(mediaType)})`;
}

function operationSection(method: string, url: string, operation: Operation): string[] {
  const lines = [
    `### \`${method.toUpperCase()} ${url}\``,
    '',
    `${operation.summary}. [How it behaves](${operation.externalDocs.url}).`,
    '',
    `Credentials: ${credentialsOf(operation)}.`,
    '',
  ];
  for (const location of ['path', 'query', 'header'] as const) {
    const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in === location);
    if (parameters.length === 0) continue;
    lines.push(`${location === 'path' ? 'Path' : location === 'query' ? 'Query' : 'Headers'}:`, '');
    lines.push(
      ...fieldTable(
        parameters.map(({ name, description, schema, required }) => ({
          name,
          schema: description === undefined ? schema : { ...schema, description },
          required,
        })),
        'Rules',
      ),
      '',
    );
  }
  const body = operation.requestBody?.content['application/json']?.schema;
  if (body) lines.push('Body (JSON):', '', ...fieldTable(fieldsOf(body), 'Rules'), '');
  else if (operation.requestBody) {
    // Bytes (a picture): each media type's schema says what they must be.
    const { content } = operation.requestBody;
    const said = Object.values(content)[0]?.schema.description;
    lines.push(`Body (${Object.keys(content).map(code).join(' or ')}): ${String(said ?? '')}`.trimEnd(), '');
  }
  lines.push('| Status | Answer |', '|---|---|');
  for (const [status, response] of Object.entries(operation.responses))
    lines.push(`| ${status} | ${cell(answerOf(response))} |`);
  lines.push('');
  return lines;
}

function recordSection(name: string, schema: JsonSchema): string[] {
  const lines = [`### ${name}`, ''];
  if (typeof schema.description === 'string') lines.push(schema.description, '');
  if (schema.type === 'object') lines.push(...fieldTable(fieldsOf(schema), 'Description'));
  else lines.push(`${typeOf(schema)}`);
  lines.push('');
  return lines;
}

function renderApiReference(document: OpenApiDocument): string {
  const operations = Object.entries(document.paths).flatMap(([url, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method, url, operation })),
  );
  const lines = [
    `<!-- Generated by \`${API_REFERENCE_COMMAND}\` (scripts/api-docs.ts) from the routes' schemas: do not edit by hand. -->`,
    '',
    '# API reference',
    '',
    "Every call of the API, its request and its answers, generated from its route's own schemas (most of them in",
    '`contract/`): the ones the server checks requests with and writes its answers through, and the PWA parses every',
    'answer with. The server serves the same reference as an OpenAPI 3.1 document at `GET /api/openapi.json`. How the',
    'calls behave (the envelope, sessions, dates, corrections) is explained in [API.md](API.md).',
    '',
    '## Calls',
    '',
    '| Call | What | Credentials |',
    '|---|---|---|',
    ...operations.map(({ method, url, operation }) => {
      const heading = `${method.toUpperCase()} ${url}`;
      return `| [\`${heading}\`](#${anchorOf(heading)}) | ${cell(operation.summary)} | ${cell(credentialsOf(operation))} |`;
    }),
    '',
    ...operations.flatMap(({ method, url, operation }) => operationSection(method, url, operation)),
    '## Records',
    '',
    ...Object.entries(document.components.schemas).flatMap(([name, schema]) => recordSection(name, schema)),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

/** `--stdout` prints the reference instead of writing it: tests/docs/api-reference.test.ts compares it. */
async function main() {
  const reference = renderApiReference(await servedDocument());
  if (process.argv.includes('--stdout')) {
    process.stdout.write(reference);
    return;
  }
  fs.writeFileSync(API_REFERENCE_FILE, reference);
  console.log(`wrote ${path.relative(ROOT, API_REFERENCE_FILE)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
