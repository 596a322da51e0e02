/** The scanner's own words (docs/PRODUCT.md#scanning-and-the-vin-check), fetched with the scanner. */
import { lazyCatalog } from '../../../lib/lazy-catalog';

/** Suspends until the scanner's texts of the active language are loaded. */
export const useScanCatalog = lazyCatalog({
  fr: () => import('./locales/fr/messages.po'),
  ar: () => import('./locales/ar/messages.po'),
  en: () => import('./locales/en/messages.po'),
});
