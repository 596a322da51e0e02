/**
 * The key set of GET /api/public/certificate-keys (docs/API.md#get-certificate-keys): the key that signs
 * now, then every key that signed a certificate before, newest first. Keys are never removed: a certificate
 * signed with a key since replaced must still verify.
 */
import { desc } from 'drizzle-orm';
import type { CertificateKeySet } from '../../../contract/certificate-keys';
import type { Database } from '../../db/client';
import { certificateKeys } from '../../db/schema';
import { certificateJwk, type CertificateSigner } from './signer';

export async function certificateKeySet(db: Database, signer: CertificateSigner): Promise<CertificateKeySet> {
  const rows = await db
    .select({ public_key: certificateKeys.public_key })
    .from(certificateKeys)
    .orderBy(desc(certificateKeys.first_used_at), desc(certificateKeys.kid));
  const earlier = rows.map((row) => row.public_key).filter((publicKey) => publicKey !== signer.publicKey);
  return { keys: [signer.publicKey, ...earlier].map(certificateJwk) };
}
