/**
 * What a scanned or typed code is worth (docs/PRODUCT.md#scanning-and-the-vin-check): a KODE ID label read
 * by the camera, and a vehicle identification number (VIN, ISO 3779) compared with the registry's.
 */
import { KODE_ID_LENGTH } from './rules';

/** Why a code read by the camera is not a KODE ID. */
export type KodeIdReading =
  | { kind: 'kode_id'; kodeId: string }
  | { kind: 'empty' }
  | { kind: 'wrong_length'; length: number }
  | { kind: 'wrong_characters' };

/**
 * A label holds exactly the identifier: 10 upper-case letters or digits. Spaces around it (some label
 * printers pad) are ignored; anything else (a URL, a lower-case word, a longer number) is refused and
 * the screen says why, rather than guessing a part of it.
 */
export function readKodeId(raw: string): KodeIdReading {
  const text = raw.trim();
  if (text === '') return { kind: 'empty' };
  if (text.length !== KODE_ID_LENGTH) return { kind: 'wrong_length', length: text.length };
  if (!/^[A-Z0-9]+$/.test(text)) return { kind: 'wrong_characters' };
  return { kind: 'kode_id', kodeId: text };
}

export const VIN_LENGTH = 17;

/** Letters and digits a VIN may hold: I, O and Q never appear (they read as 1 and 0). */
const VIN_FORM = /^[A-HJ-NPR-Z0-9]{17}$/;

/** Position 9's weights and the letters' values (ISO 3779 annex, 49 CFR 565.15). */
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const LETTER_VALUES = 'A1B2C3D4E5F6G7H8J1K2L3M4N5P7R9S2T3U4V5W6X7Y8Z9';

function characterValue(character: string): number {
  if (character >= '0' && character <= '9') return Number(character);
  const at = LETTER_VALUES.indexOf(character);
  return at >= 0 && at % 2 === 0 ? Number(LETTER_VALUES[at + 1]) : 0;
}

/**
 * A VIN as typed or scanned: upper case, spaces and dashes gone. A door-pillar Code 39 label of a vehicle
 * imported into North America often starts with an extra "I" (18 characters): that prefix is dropped.
 */
export function normalizeVin(raw: string): string {
  const text = raw.toUpperCase().replace(/[\s-]/g, '');
  return text.length === VIN_LENGTH + 1 && text.startsWith('I') ? text.slice(1) : text;
}

/** 17 characters, letters and digits, no I, O or Q. */
export function isVinForm(vin: string): boolean {
  return VIN_FORM.test(vin);
}

/** The check digit position 9 should hold ('0' to '9' or 'X'), computed from the other 16 characters. */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let index = 0; index < VIN_LENGTH; index++) sum += characterValue(vin[index] ?? '') * (WEIGHTS[index] ?? 0);
  const remainder = sum % 11;
  return remainder === 10 ? 'X' : String(remainder);
}

/**
 * Whether position 9 is a check digit. North America and China require one; European makers need not,
 * and many put a letter there (often Z, a filler). So the check applies only when position 9 is a digit
 * or X: a letter there means "no check digit", never an error. A European VIN can still hold a digit
 * there that is not a check digit, which is why a failed check only warns (see checkVin).
 */
export function vinCheckDigitApplies(vin: string): boolean {
  return /^[0-9X]$/.test(vin[8] ?? '');
}

export type VinCheck =
  /** Nothing entered yet. */
  | { kind: 'empty' }
  /** Still being typed: fewer than 17 characters. */
  | { kind: 'incomplete' }
  /** Not a VIN: a wrong length or a character a VIN never holds. */
  | { kind: 'invalid' }
  | { kind: 'match'; vin: string }
  /** checkDigitFailed: the entered VIN's own check digit is wrong, so it was most likely misread or mistyped. */
  | { kind: 'mismatch'; vin: string; checkDigitFailed: boolean };

/** The VIN read off the car (typed or scanned) against the vehicle's VIN in the registry. */
export function checkVin(entered: string, vehicleVin: string): VinCheck {
  const vin = normalizeVin(entered);
  if (vin === '') return { kind: 'empty' };
  if (vin.length < VIN_LENGTH && /^[A-HJ-NPR-Z0-9]*$/.test(vin)) return { kind: 'incomplete' };
  if (!isVinForm(vin)) return { kind: 'invalid' };
  // The registry's VIN decides: a European VIN whose position 9 is not a check digit still matches.
  if (vin === normalizeVin(vehicleVin)) return { kind: 'match', vin };
  return { kind: 'mismatch', vin, checkDigitFailed: vinCheckDigitApplies(vin) && vinCheckDigit(vin) !== vin[8] };
}
