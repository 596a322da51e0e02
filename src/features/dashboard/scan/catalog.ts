/**
 * The scanner's own words (docs/PRODUCT.md#scanning-and-the-vin-check). Every first load carries the
 * French catalog, so the scanner's texts live in a catalog of their own, fetched with the scanner and
 * merged into the active language's messages (Lingui's load adds to what a locale already has).
 */
import { i18n, type Messages } from '@lingui/core';
import { use } from 'react';
import { useLocale, type Locale } from '../../../lib/i18n';

const loaders: Record<Locale, () => Promise<{ messages: Messages }>> = {
  fr: () => import('./locales/fr/messages.po'),
  ar: () => import('./locales/ar/messages.po'),
  en: () => import('./locales/en/messages.po'),
};

const loading = new Map<Locale, Promise<void>>();

function loadCatalog(locale: Locale): Promise<void> {
  let promise = loading.get(locale);
  if (!promise) {
    promise = loaders[locale]().then(({ messages }) => i18n.load(locale, messages));
    // A failed fetch (offline before the service worker had it) is tried again on the next render.
    promise.catch(() => loading.delete(locale));
    loading.set(locale, promise);
  }
  return promise;
}

/** Suspends until the scanner's texts of the active language are loaded. */
export function useScanCatalog(): void {
  use(loadCatalog(useLocale()));
}
