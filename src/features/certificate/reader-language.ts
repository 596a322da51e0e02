/**
 * A certificate is read by whoever holds its link, most often someone who never opened the portal: until
 * they choose a language here, the page speaks the first of their browser's languages that it knows,
 * for this visit only (docs/PRODUCT.md#mileage-certificate). The header's language menu still chooses.
 */
import { useEffect } from 'react';
import { browserLocale, currentLocale, languageChosen, showLocaleForVisit } from '../../lib/i18n';

export function useReaderLanguage(): void {
  useEffect(() => {
    if (languageChosen()) return;
    const preferred = browserLocale();
    // A catalog that cannot be fetched leaves the page in its language.
    if (preferred && preferred !== currentLocale()) void showLocaleForVisit(preferred).catch(() => undefined);
  }, []);
}
