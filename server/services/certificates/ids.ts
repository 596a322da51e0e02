/** Certificate ids (contract/certificate.ts): 80 random bits written in Crockford's base32, in groups. */
import crypto from 'node:crypto';
import { CERTIFICATE_ID_ALPHABET, CERTIFICATE_ID_LENGTH, normaliseCertificateId } from '../../../contract';

const BITS_PER_CHARACTER = 5;

/**
 * A new id from the system's cryptographic random source: 16 characters of 5 bits each, 80 bits, so
 * no one finds a certificate by trying ids (the public lookups are also rate limited).
 */
export function newCertificateId(): string {
  const bytes = crypto.randomBytes((CERTIFICATE_ID_LENGTH * BITS_PER_CHARACTER) / 8);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let characters = '';
  for (let index = CERTIFICATE_ID_LENGTH - 1; index >= 0; index -= 1) {
    characters += CERTIFICATE_ID_ALPHABET[Number((bits >> BigInt(index * BITS_PER_CHARACTER)) & 31n)];
  }
  const id = normaliseCertificateId(characters);
  if (!id) throw new Error('a new certificate id is not in the contract’s form');
  return id;
}
