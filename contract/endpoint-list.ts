/**
 * Every call of the API with its answers, the certificates' included: what the server declares its routes
 * with and the OpenAPI document lists. The PWA reads the two tables apart (src/lib/api/answer-schemas.ts).
 */
import type * as z from 'zod/mini';
import { failureEnvelope, successEnvelope } from './answers';
import { CERTIFICATE_ENDPOINT_ANSWERS } from './certificate-answers';
import {
  ENDPOINT_ANSWERS,
  inEndpointAnswers,
  type Endpoint,
  type EndpointBase,
  type EndpointKey,
  type EndpointMethod,
  type SuccessAnswers,
} from './endpoints';

/**
 * A call's answers, from whichever table holds it. A function, not a merged table: a module whose top
 * level builds an object from the two tables would be kept in every bundle that imports the contract,
 * the PWA's first load included, with both tables.
 */
export function endpointAnswers(key: EndpointKey): SuccessAnswers {
  return inEndpointAnswers(key) ? ENDPOINT_ANSWERS[key] : CERTIFICATE_ENDPOINT_ANSWERS[key];
}

export function endpointOf(key: EndpointKey): Endpoint {
  const [method, base, path] = key.split(' ') as [EndpointMethod, EndpointBase, string];
  return { key, method, base, path, answers: endpointAnswers(key) };
}

export function allEndpoints(): Endpoint[] {
  const keys = [...Object.keys(ENDPOINT_ANSWERS), ...Object.keys(CERTIFICATE_ENDPOINT_ANSWERS)] as EndpointKey[];
  return keys.map(endpointOf);
}

/**
 * A route's response schemas for Fastify (`schema.response`): the envelope around its `data` for each
 * success status, and the failure envelope for every 4xx and 5xx, so no answer leaves unchecked.
 */
export function responseSchemas(key: EndpointKey): Record<string, z.ZodMiniType> {
  const success = Object.entries(endpointAnswers(key)).map(([status, data]) => [status, successEnvelope(data)]);
  return { ...Object.fromEntries(success), '4xx': failureEnvelope, '5xx': failureEnvelope };
}
