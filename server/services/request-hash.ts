/**
 * The fingerprint of a request body under an Idempotency-Key (docs/API.md#post-repairs): a replay
 * with the same body answers with the stored repair, a different body under the same key is refused.
 */
import crypto from 'node:crypto';

/** JSON with object keys sorted at every level, so equal values always serialise alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(body: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(body)).digest('hex');
}
