/**
 * The words of the sending panel, its hand-over file and the outbox's and storage's alerts
 * (docs/ARCHITECTURE.md#start-up): each of those parts loads on demand, so their texts load with them
 * rather than with every first load's catalog. The header's status keeps its few words in the main one.
 */
import { lazyCatalog } from '../../lib/lazy-catalog';

/** Suspends until the sending panel's texts of the active language are loaded. */
export const useSyncCatalog = lazyCatalog({
  fr: () => import('./locales/fr/messages.po'),
  ar: () => import('./locales/ar/messages.po'),
  en: () => import('./locales/en/messages.po'),
});
