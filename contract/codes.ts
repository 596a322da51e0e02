/**
 * The reasons POST /repairs refuses a well-formed entry for: only the server can tell (the repair types
 * it knows, what it stores under a key, what may still be corrected), so an entry queued offline meets
 * them when it is sent. The PWA's entries module words each one and says which state it parks the entry
 * in (src/lib/entries/refusals.ts).
 */
export const ENTRY_REFUSAL_CODES = [
  'repair_type_not_found',
  'idempotency_conflict',
  'repair_not_found',
  'already_corrected',
  'correction_window_closed',
  'correction_vehicle_changed',
  'correction_recorded_at_changed',
  'vehicle_retired',
] as const;
export type EntryRefusalCode = (typeof ENTRY_REFUSAL_CODES)[number];

/**
 * Machine-readable reasons. Validation issues carry one of these as their message; each side
 * turns it into words (the PWA through its Lingui catalogs, the server through its own table).
 */
export const ERROR_CODES = [
  'kode_id_invalid',
  'odometer_invalid',
  'repair_type_required',
  'consent_required',
  'recorded_at_invalid',
  'recorded_at_out_of_range',
  'date_out_of_range',
  'note_too_long',
  'vehicle_field_invalid',
  'invalid_characters',
  'email_invalid',
  'email_required',
  'password_required',
  'password_too_short',
  'password_too_long',
  'passwords_mismatch',
  'full_name_required',
  'phone_invalid',
  'location_invalid',
  'privacy_required',
  'token_invalid',
  'current_password_required',
  'current_password_wrong',
  'invalid_credentials',
  'email_taken',
  'session_expired',
  'session_revoked',
  'session_not_found',
  'unauthorized',
  'forbidden_origin',
  'vehicle_not_found',
  ...ENTRY_REFUSAL_CODES,
  'correction_invalid',
  'photo_exists',
  'photo_invalid',
  'owner_consent_required',
  'certificate_no_readings',
  'certificate_not_found',
  'idempotency_key_invalid',
  'rate_limited',
  'not_found',
  'method_not_allowed',
  'malformed_json',
  'body_too_large',
  'unsupported_media_type',
  'headers_too_large',
  'request_timeout',
  'unavailable',
  'invalid_request',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** The kind of every failure: the envelope's `error.type` (docs/API.md#the-envelope). */
export const ERROR_TYPES = [
  'validation',
  'auth',
  'forbidden',
  'not_found',
  'conflict',
  'rate_limited',
  'other',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];
