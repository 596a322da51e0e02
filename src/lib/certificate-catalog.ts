/**
 * A mileage certificate's public page's own words (docs/PRODUCT.md#mileage-certificate): whoever opens
 * a certificate's link or QR code needs them, no one else, so they load with the page, never with a
 * first load's catalog.
 */
import { lazyCatalog } from './lazy-catalog';

/** Suspends until the certificate page's texts of the active language are loaded. */
export const useCertificateCatalog = lazyCatalog({
  fr: () => import('../locales/certificate/fr/messages.po'),
  ar: () => import('../locales/certificate/ar/messages.po'),
  en: () => import('../locales/certificate/en/messages.po'),
});
