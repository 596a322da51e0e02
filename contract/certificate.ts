/**
 * The mileage certificate (docs/API.md#mileage-certificates): its id, its statuses, its garages and the
 * base64url its signature travels in. One rule for both sides: the server signs
 * certificateSigningInput(payload) with Ed25519, and the public page checks the same bytes with WebCrypto
 * against the key its `kid` names in the key set, so a certificate is verified in the browser without
 * trusting the server's word that it is genuine. What is signed (the payload's schemas and
 * certificateSigningInput) is in ./certificate-answers.ts, the key set's schema in ./certificate-keys.ts
 * and the routes' request schemas in ./certificate-requests.ts, all outside contract/index.ts: the PWA's
 * first load carries every schema the index reaches, and those are for the public page and the server only.
 */

/** Bumped when the payload's meaning changes; a verifier reads `version` before anything else. */
export const CERTIFICATE_VERSION = 1;

/**
 * Ids are 16 characters of Crockford's base32 (80 random bits) in four groups of four, such as
 * `7K3M-9QXD-2F8R-TN4W`: too many to enumerate, and easy to read out or type from paper, since the
 * alphabet has no I, L, O or U.
 */
export const CERTIFICATE_ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CERTIFICATE_ID_LENGTH = 16;
export const CERTIFICATE_ID_GROUP_LENGTH = 4;
export const CERTIFICATE_ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}(?:-[0-9A-HJKMNP-TV-Z]{4}){3}$/;

/** Longer than any way of writing an id: what is past it is not one, and is not even looked at. */
const ID_TEXT_MAX_LENGTH = 64;

/**
 * An id as a person may have typed it (lower case, spaces or no dashes, O for 0, I or L for 1: the
 * letters Crockford's alphabet leaves out because they are read as those digits), in its one written
 * form; null when it cannot be an id.
 */
export function normaliseCertificateId(text: string): string | null {
  if (text.length > ID_TEXT_MAX_LENGTH) return null;
  const compact = text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (compact.length !== CERTIFICATE_ID_LENGTH) return null;
  if ([...compact].some((character) => !CERTIFICATE_ID_ALPHABET.includes(character))) return null;
  const groups = compact.match(new RegExp(`.{${CERTIFICATE_ID_GROUP_LENGTH}}`, 'g')) ?? [];
  return groups.join('-');
}

/** The public page of a certificate, on the portal's origin: what its QR code and its shared link lead to. */
export function certificatePath(id: string): string {
  return `/c/${id}`;
}

/** valid until `valid_until`, then expired; revoked by its garage at any time, which outlasts the rest. */
export const CERTIFICATE_STATUSES = ['valid', 'expired', 'revoked'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/** Who took a reading, as a certificate says it: the issuing garage, or another one that is never named. */
export const CERTIFICATE_GARAGES = ['issuer', 'other'] as const;
export type CertificateGarage = (typeof CERTIFICATE_GARAGES)[number];

/** base64url (with or without padding) to bytes, on either side: WebCrypto takes the signature as bytes. */
export function base64UrlToBytes(text: string): Uint8Array {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (character) =>
    character.charCodeAt(0),
  );
}
