/**
 * The words of a part of the app that loads on demand (docs/ARCHITECTURE.md#start-up). Every first load
 * carries the French catalog, so a part's own texts live in a catalog of their own, fetched with the part
 * and merged into the active language's messages (Lingui's load adds to what a locale already has).
 */
import { i18n, type Messages } from '@lingui/core';
import { use } from 'react';
import { currentLocale, useLocale, type Locale } from './i18n';

export type CatalogLoaders = Record<Locale, () => Promise<{ messages: Messages }>>;

/** A hook that suspends until the part's texts of the active language are loaded; `preload` starts loading them. */
export interface LazyCatalog {
  (): void;
  /**
   * Fetches the active language's texts ahead, as the part's code is fetched (the part would ask only
   * once run); settles (never rejects) once they are loaded or could not be.
   */
  preload(): Promise<void>;
  /** The active language's texts are here: the part's hook returns without suspending. */
  isLoaded(): boolean;
}

export function lazyCatalog(loaders: CatalogLoaders): LazyCatalog {
  const loading = new Map<Locale, Promise<void> & { status?: string }>();
  function load(locale: Locale): Promise<void> {
    let promise = loading.get(locale);
    if (!promise) {
      const loaded: Promise<void> & { status?: string } = loaders[locale]().then(({ messages }) => {
        i18n.load(locale, messages);
      });
      // Loaded ahead, before any render used it: marked as React marks a promise it has seen settle, so
      // use() returns at once instead of suspending (and a boundary that showed its fallback holds the
      // content back a while: React throttles reveals). A promise React tracks is React's to mark.
      // A failure is handled below (the next render tries again), not reported here as unhandled.
      loaded.then(
        () => {
          if (loaded.status === undefined) Object.assign(loaded, { status: 'fulfilled', value: undefined });
        },
        () => undefined,
      );
      promise = loaded;
      // A failed fetch (offline before the service worker had it) is tried again on the next render.
      promise.catch(() => loading.delete(locale));
      loading.set(locale, promise);
    }
    return promise;
  }
  function useCatalog(): void {
    use(load(useLocale()));
  }
  return Object.assign(useCatalog, {
    preload: () => load(currentLocale()).catch(() => undefined),
    isLoaded: () => loading.get(currentLocale())?.status === 'fulfilled',
  });
}
