/**
 * The canonical form of a JSON value, RFC 8785 (JSON Canonicalization Scheme), by one implementation
 * on both sides: the hand-over file's seal (src/lib/sync/seal.ts), the fingerprint of a request body
 * under an Idempotency-Key (server/services/request-hash.ts). The same content gives the same text
 * whatever its key order or layout: keys sorted by UTF-16 code units, no whitespace, numbers and
 * strings as ECMAScript writes them.
 */
import canonicalize from 'canonicalize';

export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  // undefined, a function or a symbol has no JSON form; nothing of ours sends one.
  if (text === undefined) throw new TypeError('this value has no JSON form');
  return text;
}
