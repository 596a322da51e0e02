/**
 * Business constants shared by the PWA and the API (docs/PRODUCT.md#business-constants).
 * Changing one here changes it on both sides of the wire.
 */
export const KODE_ID_LENGTH = 10;

/** A kode_id as the server stores and compares it: case and surrounding spaces do not matter. */
export function normaliseKodeId(kodeId: string): string {
  return kodeId.trim().toUpperCase();
}
export const ODOMETER_MIN = 1;
export const ODOMETER_MAX = 2_000_000;
/** How far in the future a recorded_at may be (clock drift between tablet and server). */
export const RECORDED_AT_MAX_FUTURE_MS = 5 * 60 * 1000;
/**
 * How old a recorded_at may be when its entry reaches the server: as long as a tablet really holds an
 * entry, and no longer, since every day of it is a day a reading could be backdated by
 * (docs/PRODUCT.md#late-readings). After 24 hours unsent the PWA asks the
 * mechanic to send the entry or carry it to another tablet in a hand-over file, which keeps its
 * recorded_at; WebKit erases an uninstalled site's entries after 7 days without a visit; a tablet that
 * has not reached the server for 30 days has lost its session (30 days from the last refresh with
 * "remember me") and must sign in again, online, which sends what it holds. So 30 days.
 */
export const RECORDED_AT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * Every date-time the contract takes (recorded_at, the history's `before` cursor) falls from 1 January
 * 2000 (inclusive) to 1 January 2100 (exclusive), UTC (docs/API.md#dates). The portal has no reading from
 * before 2000 and none from after 2099; beyond such bounds a well-formed ISO 8601 text (year 0000, or
 * 9999-12-31 with a −23:59 offset, which is year 10000 in UTC) is a moment PostgreSQL cannot store.
 */
export const TIMESTAMP_MIN_MS = Date.UTC(2000, 0, 1);
export const TIMESTAMP_MAX_MS = Date.UTC(2100, 0, 1);
/** The reset link carries a PASETO v4 token; the PWA refuses anything else before calling the API. */
export const RESET_TOKEN_PREFIX = 'v4.';
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const FULL_NAME_MAX_LENGTH = 120;
export const EMAIL_MAX_LENGTH = 254;
export const NOTE_MAX_LENGTH = 1000;
/**
 * Text a field may hold: no control characters, neither C0 (U+0000 to U+001F: NUL, which PostgreSQL
 * text cannot store, escape, bell…) nor DEL nor C1 (U+007F to U+009F). Nobody types them in a form;
 * they come from broken clients or probes, and end up invisible in a record or break what reads it.
 * A multi-line field (the repair note) keeps tab, line feed and carriage return.
 */
// eslint-disable-next-line no-control-regex -- naming control characters is the point of this pattern
export const SINGLE_LINE_TEXT = /^[^\u0000-\u001F\u007F-\u009F]*$/;
// eslint-disable-next-line no-control-regex -- as above, less tab (U+0009), line feed (U+000A) and CR (U+000D)
export const MULTI_LINE_TEXT = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]*$/;
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
/**
 * Odometer plausibility bounds (docs/PRODUCT.md#odometer-plausibility): the most km a vehicle may
 * plausibly cover in any window of the given length. Chosen for the heaviest users the portal serves,
 * double-crewed long-haul trucks and inter-wilaya taxis, so an honest reading is never called
 * implausible; a tampered odometer shows as a dip, which `ODOMETER_DIP_TOLERANCE_KM` catches.
 * - Day, 1,500 km: Car-Pass (Belgium) flags more than 1,000 km a day, a car's figure; two drivers
 *   sharing a truck may drive up to 10 hours each in a day under the EU driving-time rules (Regulation
 *   (EC) 561/2006, art. 6(1) and 8(5), taken as the reference for professional drivers), 20 hours at a
 *   75 km/h average: Algiers–Tamanrasset (about 1,900 km on the RN1) is a crew's day and a half.
 * - Week, 7,000 km: nobody keeps 1,500 km a day up for a week: each driver drives 56 hours a week at most
 *   (art. 6(2)), 112 hours for a crew of two, about 7,000 km at 60–65 km/h over mixed roads.
 * - Month (30 days), 20,000 km; quarter (91 days), 55,000 km; year (365 days), 200,000 km: the mileage
 *   of the busiest double-crewed trucks (about 200,000 km a year, some 550 km a day on average); a
 *   single-driver truck or a taxi does half of it.
 * The Netherlands' RDW also judges per day up to per year; its figures are not reproduced here.
 * Each bound stays below the shorter ones prorated over its window, so each one binds at its own length
 * (maxPlausibleKm, contract/readings.ts).
 */
export const ODOMETER_MAX_KM_PER_DAY = 1500;
export const ODOMETER_MAX_KM_PER_WEEK = 7000;
export const ODOMETER_MAX_KM_PER_MONTH = 20_000;
export const ODOMETER_MAX_KM_PER_QUARTER = 55_000;
export const ODOMETER_MAX_KM_PER_YEAR = 200_000;
/** A reading this much lower than the previous one is implausible; a smaller dip is tolerated, as RDW does (a misread digit, a replaced instrument cluster's rounding). */
export const ODOMETER_DIP_TOLERANCE_KM = 100;
/**
 * A reading received more than this after it was recorded is reported late (Car-Pass, Belgium, flags
 * reports made more than 5 days late). late_report is added to its reasons, never put in their place,
 * and a late reading bears its conflict with a reading received before it (contract/readings.ts).
 * Readings received within it are judged in recorded order whatever order they arrive in.
 */
export const LATE_REPORT_MS = 5 * 24 * 60 * 60 * 1000;
/**
 * How long after the server stored a repair its partner may still correct it, counted from the first
 * repair of a chain of corrections: correcting a correction does not reopen it (docs/API.md#corrections).
 */
export const CORRECTION_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** An odometer photo (docs/API.md#photos): at most this many bytes on the wire. */
export const PHOTO_MAX_BYTES = 2 * 1024 * 1024;
/** An odometer photo's long side, in pixels: the tablet makes it this small before storing it. */
export const PHOTO_MAX_SIDE_PX = 1600;
/** The types a photo may be, told apart by their first bytes, never by the Content-Type alone. */
export const PHOTO_TYPES = ['image/webp', 'image/jpeg'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];
/** Algeria keeps UTC+1 all year (no summer time since 1981): the calendar day of a reading for same_day_duplicate. */
export const ALGIERS_UTC_OFFSET_MS = 60 * 60 * 1000;
/** The most readings GET /vehicles/{kode_id}/readings returns, newest first. */
export const VEHICLE_READINGS_MAX = 200;
/**
 * How long a mileage certificate stays valid after it is issued (docs/PRODUCT.md#mileage-certificate):
 * Car-Pass's two months. A buyer checks a certificate while a sale is under way, and readings keep
 * coming: an older one says less and less about the vehicle.
 */
export const CERTIFICATE_VALIDITY_MS = 60 * 24 * 60 * 60 * 1000;
/** The garage's list of the certificates it issued (GET /certificates): pages of 50 by default, 100 at most. */
export const CERTIFICATES_PAGE_DEFAULT = 50;
export const CERTIFICATES_PAGE_MAX = 100;
/**
 * How often one client address may read certificates (GET /api/public/certificates/{id}), found or not: a
 * buyer opening a link, or a desk checking a few dozen, stays far below; someone guessing ids meets a 429
 * long before the 2^80 ids could be walked.
 */
export const PUBLIC_CERTIFICATE_LOOKUPS = { max: 60, windowMs: 60 * 1000 } as const;
/**
 * The vehicle registry's fields (docs/PRODUCT.md#business-constants): the longest brand and model a
 * vehicle may have (the registry's, and those a repair entry carries), and its model year, from 1950 to
 * next year's (a model year goes on sale the autumn before). `npm run import:vehicles` takes these.
 */
export const VEHICLE_BRAND_MAX_LENGTH = 80;
export const VEHICLE_MODEL_MAX_LENGTH = 120;
export const VEHICLE_YEAR_MIN = 1950;
export const VEHICLE_YEAR_MAX_AHEAD = 1;

/** The latest model year a vehicle may have at `now`, by the calendar of Algiers. */
export function vehicleYearMax(now: Date): number {
  return new Date(now.getTime() + ALGIERS_UTC_OFFSET_MS).getUTCFullYear() + VEHICLE_YEAR_MAX_AHEAD;
}

/** Strips everything but digits, so "0555 12 34 56" and "0555123456" are the same number. */
export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '');
}
