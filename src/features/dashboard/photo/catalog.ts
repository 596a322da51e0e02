/** The odometer photo's own words (docs/PRODUCT.md#odometer-photo), fetched with its parts. */
import { lazyCatalog } from '../../../lib/lazy-catalog';

/** Suspends until the photo's texts of the active language are loaded. */
export const usePhotoCatalog = lazyCatalog({
  fr: () => import('./locales/fr/messages.po'),
  ar: () => import('./locales/ar/messages.po'),
  en: () => import('./locales/en/messages.po'),
});
