/**
 * The key set of GET /api/public/certificate-keys (docs/API.md#get-certificate-keys): the Ed25519 public keys
 * that sign mileage certificates. Imported by the server and by the public page that checks a certificate,
 * never through contract/index.ts, so the PWA's first load does not carry it.
 */
import * as z from 'zod/mini';
import { canonicalJson } from './canonical-json';

/** One key of the key set (RFC 7517, RFC 8037): Ed25519, for signatures, named by its RFC 7638 thumbprint. */
export const certificateKeyRecord = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string(),
  kid: z.string(),
  alg: z.literal('EdDSA'),
  use: z.literal('sig'),
});
export type CertificateKey = z.output<typeof certificateKeyRecord>;

/**
 * GET /api/public/certificate-keys: a JSON Web Key Set as RFC 7517 writes it (not in the API's envelope,
 * so any JOSE library reads it): the key that signs today and every key that signed before it.
 */
export const certificateKeySetRecord = z.object({ keys: z.array(certificateKeyRecord) });
export type CertificateKeySet = z.output<typeof certificateKeySetRecord>;

/**
 * The bytes whose SHA-256, in base64url, is an Ed25519 key's id (RFC 7638): the canonical JSON of its
 * required members. A verifier may check that a key is the one its `kid` names.
 */
export function certificateKeyThumbprintInput(x: string): Uint8Array {
  return new TextEncoder().encode(canonicalJson({ crv: 'Ed25519', kty: 'OKP', x }));
}
