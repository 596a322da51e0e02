/**
 * The words of the dashboard's parts that load on demand (docs/ARCHITECTURE.md#start-up): the History
 * tab with its correction dialogs, the Advices tab and the vehicle's timeline. They load with those
 * parts rather than with every first load's catalog; the entry form keeps its words in the main one.
 */
import { lazyCatalog } from '../../lib/lazy-catalog';

/** Suspends until the History's, the Advices' and the timeline's texts of the active language are loaded. */
export const useHistoryCatalog = lazyCatalog({
  fr: () => import('./locales/fr/messages.po'),
  ar: () => import('./locales/ar/messages.po'),
  en: () => import('./locales/en/messages.po'),
});
