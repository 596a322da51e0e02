/**
 * The odometer photo's own words (docs/PRODUCT.md#odometer-photo): the form's field, its dialogs, the
 * history's thumbnails and the storage's photo line. They load with those parts, after the form is
 * typeable, rather than with every first load's catalog.
 */
import { lazyCatalog } from './lazy-catalog';

/** Suspends until the photo's texts of the active language are loaded. */
export const usePhotoCatalog = lazyCatalog({
  fr: () => import('../locales/photo/fr/messages.po'),
  ar: () => import('../locales/photo/ar/messages.po'),
  en: () => import('../locales/photo/en/messages.po'),
});
