/**
 * The page's way to the calls' answer schemas (docs/ARCHITECTURE.md#start-up): each table is a chunk
 * fetched with the first call that needs it. contract/endpoints.ts comes with the page's first call, not
 * with its first screen; contract/certificate-answers.ts (a certificate's signed payload among them) with
 * the first certificate call, so no first screen carries it.
 */
import type { EndpointKey, SuccessAnswers } from '../../../contract/endpoints';

export async function loadAnswerSchemas(endpoint: EndpointKey): Promise<SuccessAnswers> {
  const { ENDPOINT_ANSWERS, inEndpointAnswers } = await import('../../../contract/endpoints');
  if (inEndpointAnswers(endpoint)) return ENDPOINT_ANSWERS[endpoint];
  const { CERTIFICATE_ENDPOINT_ANSWERS } = await import('../../../contract/certificate-answers');
  return CERTIFICATE_ENDPOINT_ANSWERS[endpoint];
}
