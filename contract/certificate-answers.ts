/**
 * The answers of the mileage certificates' calls (docs/API.md#mileage-certificates) and their part of the
 * calls' table, apart from contract/endpoints.ts: the PWA loads these schemas (a certificate's signed
 * payload among them) with its first certificate call, not with the first call of every screen, whose
 * first load has a budget (bench/first-load.ts). The server and the OpenAPI document read the whole
 * table (contract/endpoint-list.ts).
 */
import * as z from 'zod/mini';
import { timestamp } from './answers';
import { canonicalJson } from './canonical-json';
import { CERTIFICATE_GARAGES, CERTIFICATE_STATUSES } from './certificate';
import { CORRECTION_REASONS, READING_REASONS, READING_VERDICTS } from './readings';
import type { SuccessAnswers } from './endpoints';

/*
 * The payload's objects keep fields they do not name (looseObject): a verifier checks the payload as it
 * was signed, so a client older than a later version must not drop what it does not know before checking.
 * No descriptions: docs/API.md#mileage-certificates says what each field means.
 */
export const certificateCorrectionRecord = z
  .looseObject({
    reason: z.enum(CORRECTION_REASONS),
    replaced_km: z.nullable(z.int()),
  })
  .check(z.meta({ id: 'CertificateCorrection' }));

export const certificateReadingRecord = z
  .looseObject({
    date: timestamp(),
    km: z.int(),
    verdict: z.enum(READING_VERDICTS),
    reasons: z.array(z.enum(READING_REASONS)),
    photo: z.boolean(),
    garage: z.enum(CERTIFICATE_GARAGES),
    correction: z.nullable(certificateCorrectionRecord),
  })
  .check(z.meta({ id: 'CertificateReading' }));

export const certificatePayloadRecord = z
  .looseObject({
    version: z.int(),
    id: z.string(),
    vehicle: z.looseObject({
      kode_id: z.string(),
      vin: z.string(),
      brand: z.string(),
      model: z.string(),
      year: z.int(),
    }),
    readings: z.array(certificateReadingRecord),
    issuer: z.looseObject({ name: z.string(), city: z.nullable(z.string()) }),
    issued_at: timestamp(),
    valid_until: timestamp(),
  })
  .check(z.meta({ id: 'CertificatePayload' }));
export type CertificatePayload = z.output<typeof certificatePayloadRecord>;
export type CertificateReading = z.output<typeof certificateReadingRecord>;

/**
 * The bytes a certificate's signature covers: the UTF-8 encoding of the payload's canonical JSON (RFC
 * 8785: keys sorted, no whitespace, numbers as ECMAScript writes them). Given the payload as parsed from
 * the answer, whatever the order of its keys, a verifier gets the very bytes the server signed.
 */
export function certificateSigningInput(payload: CertificatePayload): Uint8Array {
  return new TextEncoder().encode(canonicalJson(payload));
}

export const signedCertificateRecord = z
  .object({
    payload: certificatePayloadRecord,
    signature: z.string(),
    kid: z.string(),
  })
  .check(z.meta({ id: 'SignedCertificate' }));
export type SignedCertificate = z.output<typeof signedCertificateRecord>;

// Described in docs/API.md#mileage-certificates, not here: the PWA reads no description.
const certificateSummaryFields = {
  id: z.string(),
  kode_id: z.string(),
  url: z.string(),
  issued_at: timestamp(),
  valid_until: timestamp(),
  revoked_at: z.nullable(timestamp()),
  status: z.enum(CERTIFICATE_STATUSES),
  readings_count: z.int(),
};

export const certificateSummaryRecord = z.object(certificateSummaryFields).check(z.meta({ id: 'CertificateSummary' }));

export const issuedCertificateRecord = z
  .object({ ...certificateSummaryFields, certificate: signedCertificateRecord })
  .check(z.meta({ id: 'IssuedCertificate' }));

export const publicCertificateRecord = z
  .object({
    certificate: signedCertificateRecord,
    status: z.enum(CERTIFICATE_STATUSES),
    revoked_at: z.nullable(timestamp()),
    newer_readings: z.int(),
  })
  .check(z.meta({ id: 'PublicCertificate' }));

/** The certificates' calls, keyed as contract/endpoints.ts keys every call. */
export const CERTIFICATE_ENDPOINT_ANSWERS = {
  'POST partner /vehicles/{kode_id}/certificates': { 201: issuedCertificateRecord },
  'GET partner /vehicles/{kode_id}/certificates': { 200: z.array(certificateSummaryRecord) },
  'GET partner /certificates': { 200: z.array(certificateSummaryRecord) },
  'DELETE partner /certificates/{id}': { 200: certificateSummaryRecord },
  'GET public /certificates/{id}': { 200: publicCertificateRecord },
} as const satisfies Record<string, SuccessAnswers>;
