/**
 * The fingerprint of a request body under an Idempotency-Key (docs/API.md#post-repairs): a replay
 * with the same body answers with the stored repair, a different body under the same key is refused.
 */
import crypto from 'node:crypto';
import { canonicalJson } from '../../contract/canonical-json';

export function requestHash(body: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(body)).digest('hex');
}
