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
