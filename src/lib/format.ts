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

/** An odometer reading: "120 000 km". */
export function formatKm(value: number, locale: Locale): string {
  return `${formatNumber(value, locale)} km`;
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
