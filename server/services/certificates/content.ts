/**
 * What a certificate certifies (docs/PRODUCT.md#mileage-certificate): the vehicle, its standing readings
 * with the verdicts the timeline shows (stored with each repair, server/services/repairs/judge.ts), and the
 * issuing garage. Another garage's readings say `garage: 'other'` and nothing more of it: no name, id or
 * email of any garage but the issuer's name and city is read here.
 */
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CertificatePayload, CertificateReading, CorrectionReason } from '../../../contract';
import type { Database } from '../../db/client';
import { partners, repairPhotos, repairs, users, vehicles } from '../../db/schema';

export type CertificateContent = Pick<CertificatePayload, 'vehicle' | 'readings' | 'issuer'>;

/** A part of an address that names no place: a postcode, a house number. */
const NUMBER_ONLY = /^\d[\d\s-]*$/;

/**
 * The garage's city, read from the address it chose on the map (a place search's name, such as
 * "Garage El Amel, Bab Ezzouar, Alger, Algérie"): the place named before the country, postcodes left
 * aside; the one place when only one is named; null without an address. Algerians name a garage's town
 * by its wilaya, which is what both Photon's and Nominatim's names put there.
 */
export function cityOf(address: string | null): string | null {
  const places = (address ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && !NUMBER_ONLY.test(part));
  return places.length > 1 ? (places.at(-2) ?? null) : (places[0] ?? null);
}

async function vehicleOf(db: Database, kodeId: string): Promise<CertificateContent['vehicle'] | null> {
  const [vehicle] = await db
    .select({
      kode_id: vehicles.kode_id,
      vin: vehicles.vin,
      brand: vehicles.brand,
      model: vehicles.model,
      year: vehicles.year,
    })
    .from(vehicles)
    .where(eq(vehicles.kode_id, kodeId))
    .limit(1);
  return vehicle ?? null;
}

async function issuerOf(db: Database, partnerId: string): Promise<CertificateContent['issuer']> {
  const [garage] = await db
    .select({ name: users.full_name, address: partners.address })
    .from(users)
    .innerJoin(partners, eq(partners.user_id, users.id))
    .where(eq(users.id, partnerId))
    .limit(1);
  // The caller's session was checked a moment ago: a partner gone since is a failure, not a certificate.
  if (!garage) throw new Error('the issuing partner no longer exists');
  return { name: garage.name, city: cityOf(garage.address) };
}

/** The reading a correction replaced: on a certificate, its km only when it was of this vehicle. */
const replaced = alias(repairs, 'replaced');

interface ReadingRow {
  recorded_at: Date;
  odometer: number;
  verdict: CertificateReading['verdict'];
  reasons: CertificateReading['reasons'];
  by_issuer: boolean;
  has_photo: boolean;
  correction_reason: CorrectionReason | null;
  replaced_kode_id: string | null;
  replaced_odometer: number | null;
}

function toCertificateReading(row: ReadingRow, kodeId: string): CertificateReading {
  return {
    date: row.recorded_at.toISOString(),
    km: row.odometer,
    verdict: row.verdict,
    reasons: row.reasons,
    photo: row.has_photo,
    garage: row.by_issuer ? 'issuer' : 'other',
    correction:
      row.correction_reason === null
        ? null
        : {
            reason: row.correction_reason,
            replaced_km: row.replaced_kode_id === kodeId ? row.replaced_odometer : null,
          },
  };
}

/**
 * The vehicle's standing readings, oldest first in the odometer rules' order (recorded_at, then id). A
 * superseded reading has left the rules and is left out; the correction that replaced it says so.
 */
async function readingsOf(db: Database, kodeId: string, issuerId: string): Promise<CertificateReading[]> {
  const rows = await db
    .select({
      recorded_at: repairs.recorded_at,
      odometer: repairs.odometer,
      verdict: repairs.verdict,
      reasons: repairs.reasons,
      by_issuer: sql<boolean>`${repairs.partner_id} = ${issuerId}`.mapWith(Boolean),
      has_photo: isNotNull(repairPhotos.repair_id).mapWith(Boolean),
      correction_reason: repairs.correction_reason,
      replaced_kode_id: replaced.kode_id,
      replaced_odometer: replaced.odometer,
    })
    .from(repairs)
    .leftJoin(repairPhotos, eq(repairPhotos.repair_id, repairs.id))
    .leftJoin(replaced, eq(replaced.id, repairs.corrects))
    .where(and(eq(repairs.kode_id, kodeId), isNull(repairs.superseded_by)))
    .orderBy(asc(repairs.recorded_at), asc(repairs.id));
  return rows.map((row) => toCertificateReading(row, kodeId));
}

/** What a certificate of the vehicle issued by `issuerId` would hold now; null for a vehicle not in the registry. */
export async function certificateContent(
  db: Database,
  kodeId: string,
  issuerId: string,
): Promise<CertificateContent | null> {
  const vehicle = await vehicleOf(db, kodeId);
  if (!vehicle) return null;
  return { vehicle, readings: await readingsOf(db, kodeId, issuerId), issuer: await issuerOf(db, issuerId) };
}
