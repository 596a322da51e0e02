/**
 * Issuing a mileage certificate (docs/API.md#post-vehicleskode_idcertificates): what it certifies, signed,
 * stored with its key's public half in one transaction, so no stored certificate names a key that the key
 * set does not publish.
 */
import {
  CERTIFICATE_VALIDITY_MS,
  CERTIFICATE_VERSION,
  type CertificatePayload,
  type IssuedCertificate,
} from '../../../contract';
import { canonicalJson } from '../../../contract/canonical-json';
import type { Database } from '../../db/client';
import { certificateKeys, certificates } from '../../db/schema';
import { certificateContent } from './content';
import { newCertificateId } from './ids';
import { summaryOf } from './records';
import type { CertificateSigner } from './signer';

export type IssueOutcome =
  | { kind: 'issued'; certificate: IssuedCertificate }
  | { kind: 'vehicle_not_found' }
  /** Nothing to certify: no garage has recorded a reading of the vehicle (or every one was superseded). */
  | { kind: 'no_readings' };

export interface IssueRequest {
  kodeId: string;
  partnerId: string;
  now: Date;
}

export async function issueCertificate(
  db: Database,
  signer: CertificateSigner,
  { kodeId, partnerId, now }: IssueRequest,
): Promise<IssueOutcome> {
  const content = await certificateContent(db, kodeId, partnerId);
  if (!content) return { kind: 'vehicle_not_found' };
  if (content.readings.length === 0) return { kind: 'no_readings' };
  const payload: CertificatePayload = {
    version: CERTIFICATE_VERSION,
    // 80 random bits: a collision is not worth a retry (it would fail the insert, 500).
    id: newCertificateId(),
    ...content,
    issued_at: now.toISOString(),
    valid_until: new Date(now.getTime() + CERTIFICATE_VALIDITY_MS).toISOString(),
  };
  const signature = signer.sign(payload);
  const row = {
    id: payload.id,
    partner_id: partnerId,
    kode_id: kodeId,
    payload: canonicalJson(payload),
    signature,
    kid: signer.kid,
    readings_count: payload.readings.length,
    issued_at: now,
    valid_until: new Date(payload.valid_until),
    revoked_at: null,
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(certificateKeys)
      .values({ kid: signer.kid, public_key: signer.publicKey, first_used_at: now })
      .onConflictDoNothing({ target: certificateKeys.kid });
    await tx.insert(certificates).values(row);
  });
  return {
    kind: 'issued',
    certificate: { ...summaryOf(row, now), certificate: { payload, signature, kid: signer.kid } },
  };
}
