/** Records as they travel on the wire (docs/API.md#records). */
import type { CorrectionReason, ReadingReason, ReadingVerdictCode } from './readings';

export interface Location {
  latitude: number;
  longitude: number;
  address?: string | null;
}

export interface Partner {
  phone_number: string;
  location: Location;
}

export interface User {
  id: string;
  full_name: string;
  email: string;
  picture: string | null;
  role: 'partner';
  partner: Partner;
}

export interface AuthSession {
  access_token: string;
  user: User;
  /**
   * The partner's hand-over key (32 bytes, base64url): the same on each of their tablets, it seals and
   * checks the hand-over file offline (docs/ARCHITECTURE.md#the-hand-over-file). Kept on the tablet
   * with the signed-in partner; never logged. Always sent; absent only from a server older than it.
   */
  handover_key?: string;
}

export interface RepairType {
  id: string;
  name: string;
  name_ar: string | null;
  name_en: string | null;
}

export interface Vehicle {
  kode_id: string;
  vin: string;
  brand: string;
  name: string;
  year: number;
  last_odometer: number | null;
  last_odometer_at: string | null;
}

export interface RepairRecord {
  id: string;
  vehicle: Pick<Vehicle, 'kode_id' | 'vin' | 'brand' | 'name' | 'year'>;
  repair_type: RepairType;
  odometer: number;
  note: string;
  /** The odometer rules' verdict over the vehicle's stored readings (contract/readings.ts), kept current. */
  verdict: ReadingVerdictCode;
  reasons: ReadingReason[];
  /** verdict === 'implausible', kept for clients written before verdicts. */
  odometer_anomaly: boolean;
  /** The id of the partner's repair that corrects this one; null while it stands. */
  superseded_by: string | null;
  /** On a correction: the id of the repair it corrects, and why; null otherwise. */
  corrects: string | null;
  correction_reason: CorrectionReason | null;
  recorded_at: string;
  created_at: string;
  /**
   * Until when the partner may correct it: 7 days after the first repair of its chain of corrections was
   * stored (docs/API.md#corrections); null once superseded. Absent from records a tablet kept from a
   * server older than this field.
   */
  correctable_until?: string | null;
  /**
   * The Idempotency-Key the tablet sent it under (only ever shown to the partner who recorded it): a
   * tablet that never heard the answer recognises its queued entry in the history by it.
   */
  idempotency_key: string;
}

export interface Statistics {
  repairs_total: number;
  repairs_this_month: number;
  vehicles_total: number;
  last_repair_at: string | null;
  /** The partner's repairs standing (not superseded) with the verdict 'implausible'. */
  implausible_total: number;
}

/** One reading of a vehicle's timeline (docs/API.md#get-vehicleskode_idreadings): never which garage took it. */
export interface VehicleReading {
  odometer: number;
  recorded_at: string;
  verdict: ReadingVerdictCode;
  reasons: ReadingReason[];
  /** Recorded by the partner asking. */
  own: boolean;
}

export interface Settings {
  partner_conditions: string;
  partner_conditions_ar: string | null;
  partner_conditions_en: string | null;
}

/** The map and geocoder providers, read by the PWA at run time (docs/API.md#get-client-config). */
export interface ClientConfig {
  tile_url: string;
  tile_attribution: string;
  geocoder_url: string;
  geocoder_kind: 'photon' | 'nominatim';
}
