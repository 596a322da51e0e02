/**
 * What the API answers, as zod-mini schemas: every record of an answer's `data` (docs/API.md#records)
 * and the envelope around it (docs/API.md#the-envelope). The server writes an answer only through its
 * route's schema (fields it does not name are dropped; one missing is a 500), the PWA parses every
 * success answer with the same schema before using it, and the OpenAPI document is generated from them
 * (docs/api-reference.md). The TypeScript types of contract/models.ts are inferred from these.
 *
 * Descriptions are attached with `z.describe`/`z.meta` so the generated reference carries them; a record
 * with an `id` becomes a named schema of the OpenAPI document.
 */
import * as z from 'zod/mini';
import { ERROR_CODES, ERROR_TYPES } from './codes';
import { CORRECTION_REASONS, READING_REASONS, READING_VERDICTS } from './readings';

/** A moment as the API writes it: ISO 8601 in UTC (docs/API.md#dates). */
export const timestamp = () => z.iso.datetime({ offset: true });

const named = (id: string, description: string) => z.meta({ id, description });

export const locationRecord = z
  .object({
    latitude: z.number(),
    longitude: z.number(),
    address: z.optional(z.nullable(z.string())),
  })
  .check(named('Location', 'Where the garage is (WGS 84 degrees), with the address the partner chose.'));

export const partnerRecord = z
  .object({ phone_number: z.string(), location: locationRecord })
  .check(named('Partner', 'The garage: its phone number and place.'));

export const userRecord = z
  .object({
    id: z.guid(),
    full_name: z.string(),
    email: z.string(),
    picture: z.nullable(z.string()).check(z.describe('A file name under /api/images, or null.')),
    role: z.literal('partner'),
    partner: partnerRecord,
  })
  .check(named('User', 'The signed-in partner.'));

export const authSessionRecord = z
  .object({
    access_token: z.string().check(z.describe('Sent as `Authorization: Bearer` on partner calls; short-lived.')),
    user: userRecord,
    handover_key: z.optional(
      z
        .string()
        .check(
          z.describe(
            "The partner's hand-over key (32 bytes, base64url): the same on each of their tablets, it seals and " +
              'checks the hand-over file offline. Kept on the tablet with the signed-in partner; never logged. ' +
              'Always sent; absent only from a server older than it.',
          ),
        ),
    ),
  })
  .check(named('AuthSession', 'A sign-in: the access token and the partner; the refresh token travels as a cookie.'));

export const repairTypeRecord = z
  .object({
    id: z.string(),
    name: z.string().check(z.describe('The French name.')),
    name_ar: z.nullable(z.string()),
    name_en: z.nullable(z.string()),
  })
  .check(named('RepairType', 'A kind of repair, named in French, Arabic and English.'));

const vehicleFields = {
  kode_id: z.string(),
  vin: z.string(),
  brand: z.string(),
  name: z.string().check(z.describe("The vehicle's model (the registry's `model` column, named `name` on the wire).")),
  year: z.int(),
};

export const vehicleRecord = z
  .object({
    ...vehicleFields,
    last_odometer: z.nullable(z.int()).check(z.describe('The latest standing reading of any garage, or null.')),
    last_odometer_at: z.nullable(timestamp()),
  })
  .check(named('Vehicle', 'A vehicle of the registry and its last known reading.'));

export const repairVehicleRecord = z
  .object(vehicleFields)
  .check(named('RepairVehicle', 'The vehicle a repair was recorded on.'));

export const photoRecord = z
  .object({
    url: z
      .string()
      .check(z.describe('Where the partner who recorded the reading fetches the picture (with the access token).')),
    bytes: z.int(),
    width: z.int(),
    height: z.int(),
  })
  .check(named('Photo', "The odometer's picture joined to a reading (docs/API.md#photos)."));

export const repairRecord = z
  .object({
    id: z.guid(),
    vehicle: repairVehicleRecord,
    repair_type: repairTypeRecord,
    odometer: z.int(),
    note: z.string(),
    verdict: z
      .enum(READING_VERDICTS)
      .check(z.describe("The odometer rules' verdict over the vehicle's stored readings, kept current.")),
    reasons: z.array(z.enum(READING_REASONS)),
    odometer_anomaly: z
      .boolean()
      .check(z.describe("verdict === 'implausible', kept for clients written before verdicts.")),
    superseded_by: z
      .nullable(z.guid())
      .check(z.describe("The id of the partner's repair that corrects this one; null while it stands.")),
    corrects: z
      .nullable(z.guid())
      .check(z.describe('On a correction: the id of the repair it corrects; null otherwise.')),
    correction_reason: z.nullable(z.enum(CORRECTION_REASONS)),
    recorded_at: timestamp().check(z.describe('When the mechanic pressed Insert.')),
    created_at: timestamp().check(z.describe('When the server stored it.')),
    correctable_until: z.optional(
      z
        .nullable(timestamp())
        .check(
          z.describe(
            'Until when the partner may correct it: 7 days after the first repair of its chain of corrections ' +
              'was stored; null once superseded. Absent from records a tablet kept from a server older than it.',
          ),
        ),
    ),
    photo: z.optional(
      z
        .nullable(photoRecord)
        .check(
          z.describe(
            "The odometer's photo, or null. Always sent; absent only from records a tablet kept from a server older than it.",
          ),
        ),
    ),
    idempotency_key: z
      .string()
      .check(
        z.describe(
          'The Idempotency-Key the tablet sent it under (only ever shown to the partner who recorded it): a ' +
            'tablet that never heard the answer recognises its queued entry in the history by it.',
        ),
      ),
  })
  .check(named('RepairRecord', 'A repair the partner recorded.'));

export const statisticsRecord = z
  .object({
    repairs_total: z.int(),
    repairs_this_month: z.int(),
    vehicles_total: z.int(),
    last_repair_at: z.nullable(timestamp()),
    implausible_total: z
      .int()
      .check(z.describe("The partner's repairs standing (not superseded) with the verdict 'implausible'.")),
  })
  .check(named('Statistics', "The partner's totals."));

export const vehicleReadingRecord = z
  .object({
    odometer: z.int(),
    recorded_at: timestamp(),
    verdict: z.enum(READING_VERDICTS),
    reasons: z.array(z.enum(READING_REASONS)),
    own: z.boolean().check(z.describe('Recorded by the partner asking.')),
    has_photo: z.optional(
      z
        .boolean()
        .check(
          z.describe(
            "Whether the reading has an odometer photo (never the photo itself: it is its garage's). Always sent; " +
              'absent only from a server older than it.',
          ),
        ),
    ),
  })
  .check(named('VehicleReading', "One reading of a vehicle's timeline: never which garage took it."));

export const settingsRecord = z
  .object({
    partner_conditions: z.string().check(z.describe('HTML, in French.')),
    partner_conditions_ar: z.nullable(z.string()),
    partner_conditions_en: z.nullable(z.string()),
  })
  .check(named('Settings', 'The partner conditions in French, Arabic and English.'));

export const GEOCODER_KINDS = ['photon', 'nominatim'] as const;

export const clientConfigRecord = z
  .object({
    tile_url: z.string(),
    tile_attribution: z.string(),
    geocoder_url: z.string(),
    geocoder_kind: z.enum(GEOCODER_KINDS),
  })
  .check(named('ClientConfig', 'The map and geocoder providers, read by the PWA at run time.'));

export const REDIS_STATES = ['ok', 'down', 'not_configured'] as const;

export const liveProbeRecord = z
  .object({ status: z.literal('live') })
  .check(named('LiveProbe', 'The process answers.'));

export const readyProbeRecord = z
  .object({
    status: z.literal('ready'),
    database: z.literal('ok'),
    migrations: z.literal('ok'),
    redis: z
      .enum(REDIS_STATES)
      .check(z.describe('Reported, never failing the probe: limits count in memory meanwhile.')),
  })
  .check(named('ReadyProbe', 'This instance can serve.'));

export const deviceSessionRecord = z
  .object({
    id: z.guid().check(z.describe("The device's session: the same across the refresh token's rotations.")),
    device: z
      .string()
      .check(
        z.describe(
          'Parsed from the User-Agent of its sign-in (browser, operating system, device), e.g. "Chrome 156 · Android 14 · Samsung SM-X200"; empty when nothing could be told.',
        ),
      ),
    signed_in_at: timestamp(),
    last_used_at: timestamp().check(z.describe('The last call made with it, to the minute.')),
    address: z
      .nullable(z.string())
      .check(
        z.describe(
          'The network it last called from, coarse: an IPv4 /24 ("192.0.2.x") or an IPv6 /48 ("2001:db8:85a3::/48"); null when unknown.',
        ),
      ),
    current: z.boolean().check(z.describe('The session of the call asking.')),
  })
  .check(named('DeviceSession', "A device signed in to the partner's account (docs/API.md#sessions)."));

export const signInRecord = z
  .object({
    at: timestamp(),
    device: z.string().check(z.describe('As in DeviceSession.')),
    address: z.nullable(z.string()).check(z.describe('As in DeviceSession, at that sign-in.')),
    new_device: z
      .boolean()
      .check(
        z.describe(
          "The first sign-in from this device: none of the partner's sign-ins kept before it had the same `device`.",
        ),
      ),
  })
  .check(named('SignIn', "One of the partner's recent sign-ins."));

/** The `data` of calls that answer nothing. */
export const noData = z.null();

/** The success envelope around a route's `data`. */
export function successEnvelope<Data extends z.ZodMiniType>(data: Data) {
  return z.object({ code: z.int(), status: z.literal('success'), data });
}

export const errorBody = z
  .object({
    type: z.enum(ERROR_TYPES),
    message: z.string().check(z.describe('Human-readable, in the language the request asked for (Accept-Language).')),
    reason: z.optional(
      z.enum(ERROR_CODES).check(z.describe('Machine-readable reason, for clients that word errors themselves.')),
    ),
    fields: z.optional(
      z
        .record(z.string(), z.string())
        .check(z.describe('On validation failures: one worded message per invalid field.')),
    ),
  })
  .check(named('Error', 'Why the call failed.'));

export const failureEnvelope = z
  .object({ code: z.int(), status: z.literal('error'), error: errorBody })
  .check(named('Failure', 'Every failure, whatever its status: the HTTP status always equals `code`.'));
