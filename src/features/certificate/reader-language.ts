/**
 * A certificate is read by whoever holds its link, most often someone who never opened the portal: until
 * they choose a language here, the page speaks the first of their browser's languages that it knows,
 * for this visit only (docs/PRODUCT.md#mileage-certificate). The header's language menu still chooses.
 */
import { useEffect, useState } from 'react';
import { currentLocale, isLocale, LANGUAGE_STORAGE_KEY, showLocaleForVisit, type Locale } from '../../lib/i18n';

/** Whether a language was chosen on this device (kept under LANGUAGE_STORAGE_KEY). */
function languageChosen(): boolean {
  try {
    return isLocale(localStorage.getItem(LANGUAGE_STORAGE_KEY));
  } catch {
    return false;
  }
}

/** The first of the browser's preferred languages that the portal speaks ('ar-DZ' is Arabic), or null. */
function browserLocale(languages: readonly string[] = navigator.languages ?? []): Locale | null {
  const spoken = languages.map((tag) => tag.toLowerCase().split('-')[0]).find(isLocale);
  return spoken ?? null;
}

/** The language this visit should switch to, or null when the page already speaks the reader's. */
function languageForVisit(): Locale | null {
  if (languageChosen()) return null;
  const preferred = browserLocale();
  return preferred && preferred !== currentLocale() ? preferred : null;
}

/**
 * Switches the page to the reader's language; false until it is shown, so the certificate is not painted
 * in French first and then again in the reader's language.
 */
export function useReaderLanguage(): boolean {
  const [switching] = useState(languageForVisit);
  const [ready, setReady] = useState(switching === null);
  useEffect(() => {
    if (switching === null) return;
    // A catalog that cannot be fetched leaves the page in its language.
    void showLocaleForVisit(switching)
      .catch(() => undefined)
      .finally(() => setReady(true));
  }, [switching]);
  return ready;
}
