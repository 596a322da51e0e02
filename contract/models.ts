/**
 * Records as they travel on the wire (docs/API.md#records): the types inferred from their schemas in
 * ./answers.ts, the one source of truth, where each field is described.
 */
import type * as z from 'zod/mini';
import type {
  authSessionRecord,
  clientConfigRecord,
  locationRecord,
  partnerRecord,
  photoRecord,
  repairRecord,
  repairTypeRecord,
  settingsRecord,
  statisticsRecord,
  userRecord,
  vehicleReadingRecord,
  vehicleRecord,
} from './answers';
import type { certificateSummaryRecord, issuedCertificateRecord, publicCertificateRecord } from './certificate-answers';

export type Location = z.output<typeof locationRecord>;
export type Partner = z.output<typeof partnerRecord>;
export type User = z.output<typeof userRecord>;
export type AuthSession = z.output<typeof authSessionRecord>;
export type RepairType = z.output<typeof repairTypeRecord>;
export type Vehicle = z.output<typeof vehicleRecord>;
export type RepairRecord = z.output<typeof repairRecord>;
export type Photo = z.output<typeof photoRecord>;
export type Statistics = z.output<typeof statisticsRecord>;
export type VehicleReading = z.output<typeof vehicleReadingRecord>;
export type Settings = z.output<typeof settingsRecord>;
export type ClientConfig = z.output<typeof clientConfigRecord>;
export type CertificateSummary = z.output<typeof certificateSummaryRecord>;
export type IssuedCertificate = z.output<typeof issuedCertificateRecord>;
export type PublicCertificate = z.output<typeof publicCertificateRecord>;
