/**
 * Business constants shared by the PWA and the API (docs/PRODUCT.md#business-constants).
 * Changing one here changes it on both sides of the wire.
 */
export const KODE_ID_LENGTH = 10;
export const ODOMETER_MIN = 1;
export const ODOMETER_MAX = 2_000_000;
/** How far in the future a recorded_at may be (clock drift between tablet and server). */
export const RECORDED_AT_MAX_FUTURE_MS = 5 * 60 * 1000;
/** How old a queued entry may be when it finally reaches the server. */
export const RECORDED_AT_MAX_AGE_MS = 90 * 24 * 60 * 60 * 1000;
/** The reset link carries a PASETO v4 token; the PWA refuses anything else before calling the API. */
export const RESET_TOKEN_PREFIX = 'v4.';
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const FULL_NAME_MAX_LENGTH = 120;
export const EMAIL_MAX_LENGTH = 254;
export const NOTE_MAX_LENGTH = 1000;
/**
 * Algerian numbers: a leading 0 then 8 (landline) to 10 (the spec's mask) digits.
 * The mask fixes the 0 and takes up to 10 digits; validation accepts 8 to 10 (docs/PRODUCT.md#phone-numbers).
 */
export const PHONE_PATTERN = /^0\d{8,10}$/;
/**
 * imask pattern: a literal 0, 8 required digits, then 2 optional ones. In imask `0` is "any digit"
 * even inside `{}`; the fixed 0 must be escaped (`\\0`), and `{}` keeps it in the unmasked value.
 * Checked with imask 7.6: typing 555123456 gives 0555123456, typing 0555123456 gives the same.
 */
export const PHONE_MASK = '{\\0}00000000[00]';
export const REPAIRS_PAGE_DEFAULT = 100;
export const REPAIRS_PAGE_MAX = 500;
/** Registration default location (docs/PRODUCT.md#business-constants). */
export const REGISTRATION_DEFAULT_LOCATION = { latitude: 36, longitude: 3 } as const;
/** Location picker default centre near Algiers (docs/PRODUCT.md#business-constants). */
export const MAP_DEFAULT_CENTER = { latitude: 36.76375, longitude: 3.05176 } as const;
/** Average daily distance above which a new reading is implausibly high (docs/PRODUCT.md#odometer-plausibility). */
export const ODOMETER_MAX_KM_PER_DAY = 1500;

/** Strips everything but digits, so "0555 12 34 56" and "0555123456" are the same number. */
export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '');
}
