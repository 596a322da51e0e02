/**
 * Certificates signed here as the server signs them (Ed25519 over certificateSigningInput, by
 * node:crypto), with the key set that publishes their key, for the page's tests.
 */
import crypto from 'node:crypto';
import type { CertificatePayload, PublicCertificate, SignedCertificate } from '../../../../contract/server';
import { certificateSigningInput } from '../../../../contract/server';
import type { CertificateKeySet } from '../../../../contract/certificate-keys';

export const CERTIFICATE_ID = '7K3M-9QXD-2F8R-TN4W';
export const KID = 'test-key-1';

const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');

export const KEY_SET: CertificateKeySet = {
  keys: [{ kty: 'OKP', crv: 'Ed25519', x: publicKey.export({ format: 'jwk' }).x!, kid: KID, alg: 'EdDSA', use: 'sig' }],
};

export const PAYLOAD: CertificatePayload = {
  version: 1,
  id: CERTIFICATE_ID,
  vehicle: { kode_id: 'KODE000001', vin: 'VF1S1CD16RB267735', brand: 'Renault', model: 'Symbol', year: 2024 },
  readings: [
    {
      date: '2026-03-01T09:30:00.000Z',
      km: 120000,
      verdict: 'no_verdict',
      reasons: [],
      photo: false,
      garage: 'other',
      correction: null,
    },
    {
      date: '2026-04-02T10:00:00.000Z',
      km: 126500,
      verdict: 'plausible',
      reasons: [],
      photo: true,
      garage: 'issuer',
      correction: { reason: 'typo', replaced_km: 12650 },
    },
    {
      date: '2026-04-20T10:00:00.000Z',
      km: 98000,
      verdict: 'implausible',
      reasons: ['lower_than_previous', 'late_report'],
      photo: false,
      garage: 'other',
      correction: null,
    },
  ],
  issuer: { name: 'Garage El Amel', city: 'Alger' },
  issued_at: '2026-04-21T10:05:00.000Z',
  valid_until: '2026-06-20T10:05:00.000Z',
};

/** The payload signed by the test key, named by `kid`. */
export function signed(payload: CertificatePayload = PAYLOAD, kid = KID): SignedCertificate {
  const signature = crypto.sign(null, certificateSigningInput(payload), privateKey).toString('base64url');
  return { payload, signature, kid };
}

/** The public page's answer for a certificate. */
export function answer(overrides: Partial<PublicCertificate> = {}): PublicCertificate {
  return { certificate: signed(), status: 'valid', revoked_at: null, newer_readings: 0, ...overrides };
}
