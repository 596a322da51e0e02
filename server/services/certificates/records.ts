/**
 * Certificates as the wire shows them: the garage's lists and its revocation (only ever its own), and the
 * public read by id with the status now and how many readings arrived since.
 */
import { and, count, desc, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  certificatePath,
  type CertificatePayload,
  type CertificateStatus,
  type CertificateSummary,
  type PublicCertificate,
} from '../../../contract';
import type { Database } from '../../db/client';
import { certificates, repairs } from '../../db/schema';

const summaryColumns = {
  id: certificates.id,
  kode_id: certificates.kode_id,
  issued_at: certificates.issued_at,
  valid_until: certificates.valid_until,
  revoked_at: certificates.revoked_at,
  readings_count: certificates.readings_count,
};

type SummaryRow = {
  id: string;
  kode_id: string;
  issued_at: Date;
  valid_until: Date;
  revoked_at: Date | null;
  readings_count: number;
};

/** Revoked outlasts the rest; a certificate is expired from its valid_until on. */
function statusAt(row: Pick<SummaryRow, 'valid_until' | 'revoked_at'>, now: Date): CertificateStatus {
  if (row.revoked_at) return 'revoked';
  return now.getTime() >= row.valid_until.getTime() ? 'expired' : 'valid';
}

export function summaryOf(row: SummaryRow, now: Date): CertificateSummary {
  return {
    id: row.id,
    kode_id: row.kode_id,
    url: certificatePath(row.id),
    issued_at: row.issued_at.toISOString(),
    valid_until: row.valid_until.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
    status: statusAt(row, now),
    readings_count: row.readings_count,
  };
}

async function selectSummaries(db: Database, where: SQL | undefined, limit: number, now: Date) {
  const rows = await db
    .select(summaryColumns)
    .from(certificates)
    .where(where)
    .orderBy(desc(certificates.issued_at), desc(certificates.id))
    .limit(limit);
  return rows.map((row) => summaryOf(row, now));
}

/** An exclusive cursor in (issued_at, id) order, as GET /repairs pages: the last item's issued_at and id. */
function issuedBefore({ before, beforeId }: { before?: Date; beforeId?: string }): SQL | undefined {
  if (!before) return undefined;
  if (!beforeId) return lt(certificates.issued_at, before);
  return or(lt(certificates.issued_at, before), and(eq(certificates.issued_at, before), lt(certificates.id, beforeId)));
}

/** The certificates the partner issued, newest first. */
export function partnerCertificates(
  db: Database,
  partnerId: string,
  page: { limit: number; before?: Date; beforeId?: string },
  now: Date,
): Promise<CertificateSummary[]> {
  return selectSummaries(db, and(eq(certificates.partner_id, partnerId), issuedBefore(page)), page.limit, now);
}

/** The certificates the partner issued for one vehicle, newest first. */
export function vehicleCertificates(
  db: Database,
  partnerId: string,
  kodeId: string,
  limit: number,
  now: Date,
): Promise<CertificateSummary[]> {
  const where = and(eq(certificates.partner_id, partnerId), eq(certificates.kode_id, kodeId));
  return selectSummaries(db, where, limit, now);
}

/**
 * Revokes the partner's certificate; revoking it again changes nothing and answers the same (the first
 * revocation's moment is kept). Null when it is not the partner's, or does not exist: the same answer.
 */
export async function revokeCertificate(
  db: Database,
  partnerId: string,
  id: string,
  now: Date,
): Promise<CertificateSummary | null> {
  const [row] = await db
    .update(certificates)
    .set({ revoked_at: sql`coalesce(${certificates.revoked_at}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(certificates.id, id), eq(certificates.partner_id, partnerId)))
    .returning(summaryColumns);
  return row ? summaryOf(row, now) : null;
}

/**
 * Standing readings of the vehicle that the server received after `issuedAt`, from any garage: readings
 * taken since, readings sent late, corrections; each one the certificate does not show.
 */
async function readingsReceivedAfter(db: Database, kodeId: string, issuedAt: Date): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(repairs)
    .where(and(eq(repairs.kode_id, kodeId), isNull(repairs.superseded_by), gt(repairs.created_at, issuedAt)));
  return row?.count ?? 0;
}

/** A certificate as anyone with its id reads it, or null when there is none. */
export async function publicCertificate(db: Database, id: string, now: Date): Promise<PublicCertificate | null> {
  const [row] = await db
    .select({
      ...summaryColumns,
      payload: certificates.payload,
      signature: certificates.signature,
      kid: certificates.kid,
    })
    .from(certificates)
    .where(eq(certificates.id, id))
    .limit(1);
  if (!row) return null;
  // The text this server signed and stored; the route's answer schema checks it again on the way out.
  const payload = JSON.parse(row.payload) as CertificatePayload;
  return {
    certificate: { payload, signature: row.signature, kid: row.kid },
    status: statusAt(row, now),
    revoked_at: row.revoked_at?.toISOString() ?? null,
    newer_readings: await readingsReceivedAfter(db, row.kode_id, row.issued_at),
  };
}
