/**
 * A certificate checked in the reader's browser (docs/API.md#mileage-certificates): its signature,
 * against the published key its `kid` names, over the bytes the server signed. The page then trusts
 * the certificate's own bytes rather than the server's word that they are genuine.
 */
import { base64UrlToBytes, type ApiResult, type SignedCertificate } from '../../../contract';
import { certificateSigningInput } from '../../../contract/certificate-answers';
import type { CertificateKey, CertificateKeySet } from '../../../contract/certificate-keys';

/**
 * - verified: the signature holds, by a published key, for the certificate asked for;
 * - tampered: the signature does not hold (`signature`), or the certificate is another one than the
 *   number asked for (`id`): a genuine certificate shown under a number it does not bear;
 * - unknown_key: no published key has its `kid`, even asked again past the cache;
 * - cannot_check: the keys could not be fetched, or this browser has no Ed25519 (an older one, or a
 *   page not served over https, where WebCrypto is off).
 */
export type Verification =
  | { outcome: 'verified' }
  | { outcome: 'tampered'; why: 'signature' | 'id' }
  | { outcome: 'unknown_key' }
  | { outcome: 'cannot_check'; why: 'keys_unreachable' | 'unsupported' };

/**
 * Whether the readings may be shown as the certificate's: not when it was altered or signed by no known
 * key. One that could not be checked is shown as the server gives it, under a notice that says so.
 */
export function trustworthy(verification: Verification): boolean {
  return verification.outcome === 'verified' || verification.outcome === 'cannot_check';
}

/** The key set, `fresh` past the browser's cache (src/lib/api/certificate-keys.ts). */
export type KeySetLoader = (fresh: boolean) => Promise<ApiResult<CertificateKeySet>>;

const ED25519 = { name: 'Ed25519' } as const;

/** The key its `kid` names: from the set as cached, then asked again once; 'unreachable' when not fetched. */
async function keyNamed(kid: string, loadKeys: KeySetLoader): Promise<CertificateKey | null | 'unreachable'> {
  for (const fresh of [false, true]) {
    const keySet = await loadKeys(fresh);
    if (keySet.status !== 'success') return 'unreachable';
    const key = keySet.data.keys.find((candidate) => candidate.kid === kid);
    if (key) return key;
  }
  return null;
}

/** WebCrypto's types take bytes over an ArrayBuffer (never a SharedArrayBuffer): a copy is one. */
const bytes = (view: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(view);

/** Whether the signature holds for this key: the Ed25519 check itself. */
async function signatureHolds(
  certificate: SignedCertificate,
  key: Pick<CertificateKey, 'x'>,
  subtle: SubtleCrypto,
): Promise<Verification> {
  let publicKey: CryptoKey;
  try {
    publicKey = await subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: key.x }, ED25519, false, ['verify']);
  } catch {
    // No Ed25519 in this browser (NotSupportedError), or a key it cannot read.
    return { outcome: 'cannot_check', why: 'unsupported' };
  }
  try {
    const signature = bytes(base64UrlToBytes(certificate.signature));
    const holds = await subtle.verify(
      ED25519,
      publicKey,
      signature,
      bytes(certificateSigningInput(certificate.payload)),
    );
    return holds ? { outcome: 'verified' } : { outcome: 'tampered', why: 'signature' };
  } catch {
    // A signature that is not even base64url holds for nothing.
    return { outcome: 'tampered', why: 'signature' };
  }
}

/**
 * Checks a certificate fetched for `askedId` (as normalised): never throws. `subtle`: the browser's
 * WebCrypto, undefined outside a secure context.
 */
export async function verifyCertificate(
  certificate: SignedCertificate,
  askedId: string,
  loadKeys: KeySetLoader,
  subtle: SubtleCrypto | undefined,
): Promise<Verification> {
  if (certificate.payload.id !== askedId) return { outcome: 'tampered', why: 'id' };
  if (!subtle) return { outcome: 'cannot_check', why: 'unsupported' };
  const key = await keyNamed(certificate.kid, loadKeys);
  if (key === 'unreachable') return { outcome: 'cannot_check', why: 'keys_unreachable' };
  if (!key) return { outcome: 'unknown_key' };
  return signatureHolds(certificate, key, subtle);
}
