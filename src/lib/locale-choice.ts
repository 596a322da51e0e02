/**
 * The language the tablet chose, read without the translation library: the page's entry reads it
 * before the app's code has loaded, to tell whether the prerendered page is in that language.
 */
import { LANGUAGE_COOKIE, SHELL_LOCALES } from '../../contract/shell';

export const LOCALES = SHELL_LOCALES;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'fr';
/** The same name as the cookie the server reads (src/lib/shell-cookies.ts). */
export const LANGUAGE_STORAGE_KEY = LANGUAGE_COOKIE;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export function storedLocale(): Locale {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLocale(value) ? value : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}
