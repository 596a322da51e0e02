/**
 * The key that signs mileage certificates (CERTIFICATE_KEY, or the one generated into DATA_DIR/keys.json):
 * Ed25519 by node:crypto over certificateSigningInput(payload), the bytes the public page checks with
 * WebCrypto. A key is named by its RFC 7638 thumbprint, so the same key has the same `kid` on every instance.
 */
import crypto from 'node:crypto';
import { certificateSigningInput, type CertificatePayload } from '../../../contract/server';
import { certificateKeyThumbprintInput, type CertificateKey } from '../../../contract/certificate-keys';

/**
 * The PKCS #8 structure (RFC 8410) that wraps a bare 32-byte Ed25519 seed: node:crypto imports a seed only
 * in it, as its JWK import also wants the public key, which is what the seed is needed for.
 */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface CertificateSigner {
  /** The key's id, its RFC 7638 thumbprint. */
  kid: string;
  /** The Ed25519 public key: its 32 bytes in base64url, a JWK's `x`. */
  publicKey: string;
  /** The signature of the payload, base64url of its 64 bytes. */
  sign(payload: CertificatePayload): string;
}

/** The RFC 7638 thumbprint of an Ed25519 public key: SHA-256 of its required members, in base64url. */
export function certificateKeyId(publicKey: string): string {
  return crypto.createHash('sha256').update(certificateKeyThumbprintInput(publicKey)).digest('base64url');
}

/** A public key as the key set (RFC 7517) publishes it. */
export function certificateJwk(publicKey: string): CertificateKey {
  return { kty: 'OKP', crv: 'Ed25519', x: publicKey, kid: certificateKeyId(publicKey), alg: 'EdDSA', use: 'sig' };
}

/** `seed`: the 32 bytes of an Ed25519 private key (RFC 8032), in base64url, as config.ts checked it. */
export function certificateSigner(seed: string): CertificateSigner {
  const privateKey = crypto.createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(seed, 'base64url')]),
    format: 'der',
    type: 'pkcs8',
  });
  const { x } = crypto.createPublicKey(privateKey).export({ format: 'jwk' });
  if (typeof x !== 'string') throw new Error('the certificate key has no Ed25519 public key');
  return {
    kid: certificateKeyId(x),
    publicKey: x,
    // Ed25519 hashes the message itself: node:crypto takes no digest name for it.
    sign: (payload) => crypto.sign(null, certificateSigningInput(payload), privateKey).toString('base64url'),
  };
}
