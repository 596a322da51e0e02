/**
 * Every call of the API and the `data` it answers on success, per HTTP status (docs/API.md). The server
 * declares each route's response schemas from this table, the PWA's client parses each success answer
 * with it, and contract/api-reference.ts adds what the generated reference says that a route does not.
 * Kept apart from that so the PWA's bundle carries the answers' schemas only.
 */
import * as z from 'zod/mini';
import {
  authSessionRecord,
  clientConfigRecord,
  deviceSessionRecord,
  liveProbeRecord,
  noData,
  photoRecord,
  readyProbeRecord,
  repairRecord,
  repairTypeRecord,
  settingsRecord,
  signInRecord,
  statisticsRecord,
  userRecord,
  vehicleReadingRecord,
  vehicleRecord,
} from './answers';
import type { CERTIFICATE_ENDPOINT_ANSWERS } from './certificate-answers';

/** Where each base is served (docs/API.md#bases); `api` holds what belongs to no base. */
export const API_PREFIXES = {
  auth: '/api/auth',
  partner: '/api/partner',
  public: '/api/public',
  images: '/api/images',
  health: '/api/health',
  api: '/api',
} as const;
export type EndpointBase = keyof typeof API_PREFIXES;

export type EndpointMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The `data` schema of each success status; empty for an answer that is not the envelope (bytes, a document). */
export type SuccessAnswers = Partial<Record<200 | 201, z.ZodMiniType>>;

/**
 * Keyed "METHOD base /path", the path relative to its base, its parameters written `{name}` as OpenAPI does.
 * The mileage certificates' calls are in contract/certificate-answers.ts, which the PWA loads apart; the
 * types below and contract/endpoint-list.ts take both.
 */
export const ENDPOINT_ANSWERS = {
  'POST auth /login': { 200: authSessionRecord },
  'POST auth /register/partner': { 201: authSessionRecord },
  'POST auth /refresh': { 200: authSessionRecord },
  'GET auth /logout/partner': { 200: noData },
  'POST auth /logout/partner': { 200: noData },
  'POST auth /forgot-password': { 200: noData },
  'POST auth /reset-password': { 200: noData },
  'GET auth /sessions': { 200: z.array(deviceSessionRecord) },
  'DELETE auth /sessions/{id}': { 200: noData },
  'DELETE auth /sessions': { 200: noData },
  'GET auth /sign-ins': { 200: z.array(signInRecord) },
  'PATCH partner /profile': { 200: userRecord },
  'GET partner /repair-types': { 200: z.array(repairTypeRecord) },
  'GET partner /statistics': { 200: statisticsRecord },
  'GET partner /repairs': { 200: z.array(repairRecord) },
  'POST partner /repairs': { 200: repairRecord, 201: repairRecord },
  'PUT partner /repairs/{id}/photo': { 200: photoRecord, 201: photoRecord },
  'GET partner /repairs/{id}/photo': {},
  'GET partner /vehicles/{kode_id}': { 200: vehicleRecord },
  'GET partner /vehicles/{kode_id}/readings': { 200: z.array(vehicleReadingRecord) },
  'GET public /settings': { 200: settingsRecord },
  'GET public /client-config': { 200: clientConfigRecord },
  // A JSON Web Key Set as RFC 7517 writes it, outside the envelope: contract/certificate-keys.ts.
  'GET public /certificate-keys': {},
  'GET images /{file}': {},
  'GET health /live': { 200: liveProbeRecord },
  'GET health /ready': { 200: readyProbeRecord },
  'GET api /openapi.json': {},
} as const satisfies Record<string, SuccessAnswers>;

/**
 * Whether this table holds the call; the others are the certificates' (contract/certificate-answers.ts).
 * The page loads the second table only for them (src/lib/api/answer-schemas.ts).
 */
export function inEndpointAnswers(key: EndpointKey): key is keyof typeof ENDPOINT_ANSWERS {
  return Object.hasOwn(ENDPOINT_ANSWERS, key);
}

/** Every call's answers: this table and the certificates'. */
type EndpointAnswerTable = typeof ENDPOINT_ANSWERS & typeof CERTIFICATE_ENDPOINT_ANSWERS;

export type EndpointKey = keyof EndpointAnswerTable;

/** The `data` a call answers on success, from its schemas: the PWA's client types each call by its key. */
export type AnswerOf<K extends EndpointKey> = {
  [S in keyof EndpointAnswerTable[K]]: EndpointAnswerTable[K][S] extends z.ZodMiniType
    ? z.output<EndpointAnswerTable[K][S]>
    : never;
}[keyof EndpointAnswerTable[K]];

/** The calls answered with the envelope (the others answer bytes or a document). */
export type EnvelopeEndpointKey = {
  [K in EndpointKey]: [AnswerOf<K>] extends [never] ? never : K;
}[EndpointKey];

type PathOf<K extends string> = K extends `${string} ${string} ${infer Path}` ? Path : never;
type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The `{name}` parameters of a call's path, each a string. */
export type PathParams<K extends EndpointKey> = Record<ParamNames<PathOf<K>>, string>;

export interface Endpoint {
  key: EndpointKey;
  method: EndpointMethod;
  base: EndpointBase;
  /** Relative to the base, as `{name}` parameters. */
  path: string;
  answers: SuccessAnswers;
}
