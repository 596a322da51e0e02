/**
 * Every call of the API and the `data` it answers on success, per HTTP status (docs/API.md). The server
 * declares each route's response schemas from this table, the PWA's client parses each success answer
 * with it, and contract/api-reference.ts adds what the generated reference says that a route does not.
 * Kept apart from that so the PWA's bundle carries the answers' schemas only.
 */
import * as z from 'zod/mini';
import {
  authSessionRecord,
  certificateSummaryRecord,
  clientConfigRecord,
  deviceSessionRecord,
  failureEnvelope,
  issuedCertificateRecord,
  liveProbeRecord,
  noData,
  photoRecord,
  publicCertificateRecord,
  readyProbeRecord,
  repairRecord,
  repairTypeRecord,
  settingsRecord,
  signInRecord,
  statisticsRecord,
  successEnvelope,
  userRecord,
  vehicleReadingRecord,
  vehicleRecord,
} from './answers';

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

/** Keyed "METHOD base /path", the path relative to its base, its parameters written `{name}` as OpenAPI does. */
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
  'POST partner /vehicles/{kode_id}/certificates': { 201: issuedCertificateRecord },
  'GET partner /vehicles/{kode_id}/certificates': { 200: z.array(certificateSummaryRecord) },
  'GET partner /certificates': { 200: z.array(certificateSummaryRecord) },
  'DELETE partner /certificates/{id}': { 200: certificateSummaryRecord },
  'GET public /settings': { 200: settingsRecord },
  'GET public /client-config': { 200: clientConfigRecord },
  'GET public /certificates/{id}': { 200: publicCertificateRecord },
  // A JSON Web Key Set as RFC 7517 writes it, outside the envelope: contract/certificate-keys.ts.
  'GET public /certificate-keys': {},
  'GET images /{file}': {},
  'GET health /live': { 200: liveProbeRecord },
  'GET health /ready': { 200: readyProbeRecord },
  'GET api /openapi.json': {},
} as const satisfies Record<string, SuccessAnswers>;

export type EndpointKey = keyof typeof ENDPOINT_ANSWERS;

/** The `data` a call answers on success, from its schemas: the PWA's client types each call by its key. */
export type AnswerOf<K extends EndpointKey> = {
  [S in keyof (typeof ENDPOINT_ANSWERS)[K]]: (typeof ENDPOINT_ANSWERS)[K][S] extends z.ZodMiniType
    ? z.output<(typeof ENDPOINT_ANSWERS)[K][S]>
    : never;
}[keyof (typeof ENDPOINT_ANSWERS)[K]];

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

export function endpointOf(key: EndpointKey): Endpoint {
  const [method, base, path] = key.split(' ') as [EndpointMethod, EndpointBase, string];
  return { key, method, base, path, answers: ENDPOINT_ANSWERS[key] };
}

export function allEndpoints(): Endpoint[] {
  return (Object.keys(ENDPOINT_ANSWERS) as EndpointKey[]).map(endpointOf);
}

/**
 * A route's response schemas for Fastify (`schema.response`): the envelope around its `data` for each
 * success status, and the failure envelope for every 4xx and 5xx, so no answer leaves unchecked.
 */
export function responseSchemas(key: EndpointKey): Record<string, z.ZodMiniType> {
  const success = Object.entries(ENDPOINT_ANSWERS[key] as SuccessAnswers).map(([status, data]) => [
    status,
    successEnvelope(data),
  ]);
  return { ...Object.fromEntries(success), '4xx': failureEnvelope, '5xx': failureEnvelope };
}
