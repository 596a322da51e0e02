/**
 * The connected devices' own words (docs/PRODUCT.md#connected-devices): the profile's devices section,
 * its dialogs and the password change's sign-out choice. They load with the profile, never with a
 * first load's catalog.
 */
import { lazyCatalog } from './lazy-catalog';

/** Suspends until the devices' texts of the active language are loaded. */
export const useDevicesCatalog = lazyCatalog({
  fr: () => import('../locales/devices/fr/messages.po'),
  ar: () => import('../locales/devices/ar/messages.po'),
  en: () => import('../locales/devices/en/messages.po'),
});
