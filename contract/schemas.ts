/**
 * Request payloads and their validation rules (docs/PRODUCT.md#validation-rules, docs/API.md).
 * The PWA validates forms with these before sending; the API validates every request with them.
 * Each issue's message is an ErrorCode, never prose: each side words it in the user's language.
 */
import * as z from 'zod/mini';
import { isErrorCode, type ErrorCode } from './codes';
import { CORRECTION_REASONS } from './readings';
import {
  EMAIL_MAX_LENGTH,
  FULL_NAME_MAX_LENGTH,
  KODE_ID_LENGTH,
  MULTI_LINE_TEXT,
  NOTE_MAX_LENGTH,
  ODOMETER_MAX,
  ODOMETER_MIN,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PHONE_PATTERN,
  REPAIRS_PAGE_MAX,
  RESET_TOKEN_PREFIX,
  SINGLE_LINE_TEXT,
  TIMESTAMP_MAX_MS,
  TIMESTAMP_MIN_MS,
  VEHICLE_BRAND_MAX_LENGTH,
  VEHICLE_MODEL_MAX_LENGTH,
  VEHICLE_YEAR_MIN,
} from './rules';
import { isVinForm } from './vin';

const code = (error: ErrorCode) => ({ error });

/** Refuses control characters in a one-line text (see SINGLE_LINE_TEXT). */
const singleLine = () => z.regex(SINGLE_LINE_TEXT, code('invalid_characters'));

/**
 * A date-time as every timestamp of the contract is sent (docs/API.md#dates): ISO 8601 with an offset
 * (`Z` or `±hh:mm`), naming a moment from 2000 to 2099 in UTC. `invalid` reports a malformed text;
 * `outOfRange` a well-formed one outside those years, which PostgreSQL may not even be able to store.
 */
export function isoTimestamp(invalid: ErrorCode, outOfRange: ErrorCode) {
  return z.iso.datetime({ offset: true, error: invalid }).check(
    z.refine(
      (value) => {
        const at = Date.parse(value);
        // A malformed text has had its own issue from the format: only a moment is judged here.
        return Number.isNaN(at) || (at >= TIMESTAMP_MIN_MS && at < TIMESTAMP_MAX_MS);
      },
      { error: outOfRange },
    ),
  );
}

export const KODE_ID_PATTERN = new RegExp(`^[A-Za-z0-9]{${KODE_ID_LENGTH}}$`);
export const kodeId = z.string(code('kode_id_invalid')).check(z.regex(KODE_ID_PATTERN, code('kode_id_invalid')));

/** The path of the vehicle calls (docs/API.md#get-vehicleskode_id). */
export const vehicleParams = z.object({ kode_id: kodeId });

/** A repair named in a path (its photo): the id its record gives. */
export const repairParams = z.object({ id: z.uuid(code('invalid_request')) });

/** A session named in a path: the `id` GET /sessions gives it. */
export const sessionParams = z.object({
  id: z.uuid(code('invalid_request')).check(z.describe("The session's `id`, as `GET /sessions` lists it.")),
});

/** `DELETE /sessions` ends the caller's other sessions, and says so: `?others=true`, nothing else. */
export const sessionsDeleteQuery = z.object({
  others: z
    .literal('true', code('invalid_request'))
    .check(z.describe("Required: ends every session of the partner's but the caller's own.")),
});

export const email = z
  .string(code('email_required'))
  .check(
    z.trim(),
    z.minLength(1, code('email_required')),
    z.maxLength(EMAIL_MAX_LENGTH, code('email_invalid')),
    z.email(code('email_invalid')),
  );

/** A password being checked at sign-in: any non-empty string, whatever today's length rule. */
const existingPassword = z
  .string(code('password_required'))
  .check(
    z.minLength(1, code('password_required')),
    singleLine(),
    z.maxLength(PASSWORD_MAX_LENGTH, code('password_too_long')),
  );

export const newPassword = z
  .string(code('password_required'))
  .check(
    z.minLength(1, code('password_required')),
    singleLine(),
    z.minLength(PASSWORD_MIN_LENGTH, code('password_too_short')),
    z.maxLength(PASSWORD_MAX_LENGTH, code('password_too_long')),
  );

export const fullName = z
  .string(code('full_name_required'))
  .check(
    z.trim(),
    singleLine(),
    z.minLength(1, code('full_name_required')),
    z.maxLength(FULL_NAME_MAX_LENGTH, code('full_name_required')),
  );

export const phoneNumber = z
  .string(code('phone_invalid'))
  .check(z.trim(), z.regex(PHONE_PATTERN, code('phone_invalid')));

export const location = z.object(
  {
    latitude: z
      .number(code('location_invalid'))
      .check(z.gte(-90, code('location_invalid')), z.lte(90, code('location_invalid'))),
    longitude: z
      .number(code('location_invalid'))
      .check(z.gte(-180, code('location_invalid')), z.lte(180, code('location_invalid'))),
    address: z.optional(
      z.nullable(z.string(code('location_invalid')).check(singleLine(), z.maxLength(500, code('location_invalid')))),
    ),
  },
  code('location_invalid'),
);

export const loginPayload = z.object({
  email,
  password: existingPassword,
  remember_me: z._default(z.boolean(code('invalid_request')), false),
});
export type LoginPayload = z.input<typeof loginPayload>;

export const registerPayload = z.object({
  email,
  full_name: fullName,
  location,
  password: newPassword,
  phone_number: phoneNumber,
  /** The form's required acceptance; when sent it must be true, and the server records when. */
  privacy_conditions: z.optional(z.literal(true, code('privacy_required'))),
});
export type RegisterPayload = z.input<typeof registerPayload>;

export const forgotPasswordPayload = z.object({ email });
export type ForgotPasswordPayload = z.input<typeof forgotPasswordPayload>;

export const resetToken = z
  .string(code('token_invalid'))
  .check(
    z.startsWith(RESET_TOKEN_PREFIX, code('token_invalid')),
    singleLine(),
    z.maxLength(2048, code('token_invalid')),
  );

export const resetPasswordPayload = z
  .object({
    new_password: newPassword,
    confirm_password: z.string(code('password_required')).check(singleLine()),
    token: resetToken,
  })
  .check(
    z.refine((value) => value.new_password === value.confirm_password, {
      error: 'passwords_mismatch' satisfies ErrorCode,
      path: ['confirm_password'],
    }),
  );
export type ResetPasswordPayload = z.input<typeof resetPasswordPayload>;

export const profileUpdatePayload = z.object({
  full_name: z.optional(fullName),
  email: z.optional(email),
  phone_number: z.optional(phoneNumber),
  location: z.optional(location),
  current_password: z.optional(
    z.string(code('current_password_required')).check(singleLine(), z.maxLength(PASSWORD_MAX_LENGTH)),
  ),
  new_password: z.optional(newPassword),
  /**
   * With a new password: whether every other device's session ends too (docs/API.md#sessions). Left out,
   * they end: a password is usually changed because it may be known to someone else.
   */
  sign_out_others: z.optional(z.boolean(code('invalid_request'))),
});
export type ProfileUpdatePayload = z.input<typeof profileUpdatePayload>;

const optionalText = (max: number) =>
  z.optional(
    z.nullable(
      z.string(code('vehicle_field_invalid')).check(singleLine(), z.maxLength(max, code('vehicle_field_invalid'))),
    ),
  );

/** The fields a mechanic fills in on the dashboard (docs/PRODUCT.md#validation-rules); the same rules run on the server. */
export const repairFormFields = {
  kode_id: kodeId,
  odometer: z
    .number(code('odometer_invalid'))
    .check(
      z.int(code('odometer_invalid')),
      z.gte(ODOMETER_MIN, code('odometer_invalid')),
      z.lte(ODOMETER_MAX, code('odometer_invalid')),
    ),
  repair_type_id: z
    .string(code('repair_type_required'))
    .check(z.minLength(1, code('repair_type_required')), singleLine(), z.maxLength(64, code('repair_type_required'))),
  consented: z.literal(true, code('consent_required')),
};
export const repairForm = z.object(repairFormFields);

export const repairEntry = z
  .object({
    ...repairFormFields,
    note: z._default(
      z
        .string(code('note_too_long'))
        .check(
          z.regex(MULTI_LINE_TEXT, code('invalid_characters')),
          z.maxLength(NOTE_MAX_LENGTH, code('note_too_long')),
        ),
      '',
    ),
    vin: optionalText(32),
    brand: optionalText(VEHICLE_BRAND_MAX_LENGTH),
    model: optionalText(VEHICLE_MODEL_MAX_LENGTH),
    year: z.optional(
      z.nullable(
        z.union(
          [z.number(code('vehicle_field_invalid')), z.string(code('vehicle_field_invalid')).check(singleLine())],
          code('vehicle_field_invalid'),
        ),
      ),
    ),
    /** The moment the mechanic pressed Insert, fixed then so a late sync keeps the real time. */
    recorded_at: isoTimestamp('recorded_at_invalid', 'recorded_at_out_of_range'),
    /** A correction (docs/API.md#corrections): the id of the partner's repair it replaces, and why. */
    corrects: z.optional(z.uuid(code('correction_invalid'))),
    correction_reason: z.optional(z.enum(CORRECTION_REASONS, code('correction_invalid'))),
  })
  .check(
    // One without the other says nothing useful: refused as a whole rather than half-applied.
    z.refine((entry) => (entry.corrects === undefined) === (entry.correction_reason === undefined), {
      error: 'correction_invalid' satisfies ErrorCode,
      path: ['correction_reason'],
    }),
  );
export type RepairEntry = z.input<typeof repairEntry>;

/** A brand or model of the registry: one line, not empty, at most `max` characters. */
const vehicleText = (max: number) =>
  z
    .string(code('vehicle_field_invalid'))
    .check(
      z.minLength(1, code('vehicle_field_invalid')),
      singleLine(),
      z.maxLength(max, code('vehicle_field_invalid')),
    );

/**
 * A vehicle of the registry as `npm run import:vehicles` reads it from a CSV file: every field a text
 * (docs/PRODUCT.md#business-constants). The VIN is 17 letters and digits (isVinForm); the year plain
 * decimal digits, so that "2e3" or "0x7E4", which JavaScript reads as 2000 and 2020, are not years, from
 * VEHICLE_YEAR_MIN to `maxYear` (vehicleYearMax).
 */
export function registryVehicle(maxYear: number) {
  return z.object({
    kode_id: kodeId,
    vin: z.string(code('vehicle_field_invalid')).check(z.refine(isVinForm, code('vehicle_field_invalid'))),
    brand: vehicleText(VEHICLE_BRAND_MAX_LENGTH),
    model: vehicleText(VEHICLE_MODEL_MAX_LENGTH),
    year: z.string(code('vehicle_field_invalid')).check(
      z.regex(/^[0-9]{1,4}$/, code('vehicle_field_invalid')),
      z.refine((year) => Number(year) >= VEHICLE_YEAR_MIN && Number(year) <= maxYear, code('vehicle_field_invalid')),
    ),
  });
}

/** A page's `limit` in a query string: a whole number from 1 to `max`. */
export function pageLimit(max: number) {
  return z.optional(
    z.coerce
      .number(code('invalid_request'))
      .check(z.int(code('invalid_request')), z.gte(1, code('invalid_request')), z.lte(max, code('invalid_request'))),
  );
}

export const listRepairsQuery = z.object({
  limit: pageLimit(REPAIRS_PAGE_MAX),
  before: z.optional(isoTimestamp('invalid_request', 'date_out_of_range')),
  /** With `before`: the id of the last item, so repairs sharing its recorded_at are not skipped. */
  before_id: z.optional(z.uuid(code('invalid_request'))),
});

export const IDEMPOTENCY_KEY_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The headers of POST /repairs; its route checks the key before the body, to answer `idempotency_key_invalid`. */
export const repairHeaders = z.object({
  'idempotency-key': z
    .string()
    .check(
      z.regex(IDEMPOTENCY_KEY_PATTERN),
      z.describe('A UUID made when the mechanic pressed Insert; one repair is stored per partner and key.'),
    ),
});

/**
 * The first problem of each field, keyed by field name ("location.latitude" folds into "location",
 * a problem with the value as a whole goes under "_"). A message that is not an ErrorCode (a rule
 * without its own code) reads as invalid_request. The PWA's forms and the API's request validation
 * both report problems through this.
 */
export function firstIssuePerField(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Partial<Record<string, ErrorCode>> {
  const errors: Record<string, ErrorCode> = {};
  for (const issue of issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : '_';
    errors[field] ??= isErrorCode(issue.message) ? issue.message : 'invalid_request';
  }
  return errors;
}

/** The first problem of each field of a value checked against a schema; empty when it is valid. */
export function fieldErrors(schema: z.ZodMiniType, value: unknown): Partial<Record<string, ErrorCode>> {
  const result = schema.safeParse(value);
  return result.success ? {} : firstIssuePerField(result.error.issues);
}
