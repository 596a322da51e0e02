/**
 * The words of a part of the app that loads on demand (docs/ARCHITECTURE.md#start-up). Every first load
 * carries the French catalog, so a part's own texts live in a catalog of their own, fetched with the part
 * and merged into the active language's messages (Lingui's load adds to what a locale already has).
 */
import { i18n, type Messages } from '@lingui/core';
import { use } from 'react';
import { useLocale, type Locale } from './i18n';

export type CatalogLoaders = Record<Locale, () => Promise<{ messages: Messages }>>;

/** A hook that suspends until the part's texts of the active language are loaded. */
export function lazyCatalog(loaders: CatalogLoaders): () => void {
  const loading = new Map<Locale, Promise<void>>();
  function load(locale: Locale): Promise<void> {
    let promise = loading.get(locale);
    if (!promise) {
      promise = loaders[locale]().then(({ messages }) => i18n.load(locale, messages));
      // A failed fetch (offline before the service worker had it) is tried again on the next render.
      promise.catch(() => loading.delete(locale));
      loading.set(locale, promise);
    }
    return promise;
  }
  return function useCatalog(): void {
    use(load(useLocale()));
  };
}
