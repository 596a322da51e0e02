/** Numbers as the portal shows them: grouped thousands, Latin digits in every language (as in Algeria). */
import type { Locale } from './i18n';

const formatters = new Map<Locale, Intl.NumberFormat>();

export function formatNumber(value: number, locale: Locale): string {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(`${locale}-DZ`, { maximumFractionDigits: 0, numberingSystem: 'latn' });
    formatters.set(locale, formatter);
  }
  return formatter.format(value);
}

/** The kilometre's short name in each language: "km", and "كم" in Arabic. */
export const KM_UNIT: Readonly<Record<Locale, string>> = { fr: 'km', en: 'km', ar: 'كم' };

/**
 * An odometer reading: "120 000 km", "120 000 كم". Shown in a `<bdi>`, so that in Arabic the number
 * comes first in the reading direction, the unit after it.
 */
export function formatKm(value: number, locale: Locale): string {
  return `${formatNumber(value, locale)} ${KM_UNIT[locale]}`;
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** A storage size in the largest unit under 1024 of it: "12 Mo", "1,5 Go" (one decimal under 10). */
export function formatBytes(bytes: number, locale: Locale): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(`${locale}-DZ`, {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0,
    numberingSystem: 'latn',
  }).format(value);
}
