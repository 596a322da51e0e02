/**
 * Localised records carry _ar (and _en) variants (docs/PRODUCT.md#localised-records): in Arabic the Arabic value
 * is used when present, otherwise the base field, otherwise empty. English works the same way.
 */
import type { Locale } from './i18n';

export function localized<K extends string>(
  record: ({ [key in K]?: string | null } & Record<string, unknown>) | null | undefined,
  field: K,
  locale: Locale,
): string {
  if (!record) return '';
  const base = record[field];
  if (locale !== 'fr') {
    const variant = record[`${field}_${locale}` as K];
    if (typeof variant === 'string' && variant.trim() !== '') return variant;
  }
  return typeof base === 'string' ? base : '';
}
