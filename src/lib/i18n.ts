/**
 * Languages (docs/PRODUCT.md#language-and-direction): French by default and as fallback, Arabic (right to left) and
 * English. The choice is kept under the partner-language key. French ships with the first load;
 * the other catalogs are fetched when chosen.
 */
import { i18n, type Messages } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { messages as frMessages } from '../locales/fr/messages.po';
import { directionOfLocale, LANGUAGE_COOKIE, SHELL_LOCALES } from '../../contract/shell';
import { rememberLanguageForShell } from './shell-cookies';

export const LOCALES = SHELL_LOCALES;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'fr';
/** The same name as the cookie the server reads (src/lib/shell-cookies.ts). */
export const LANGUAGE_STORAGE_KEY = LANGUAGE_COOKIE;

const loaders: Record<Exclude<Locale, 'fr'>, () => Promise<{ messages: Messages }>> = {
  ar: () => import('../locales/ar/messages.po'),
  en: () => import('../locales/en/messages.po'),
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export const directionOf: (locale: Locale) => 'rtl' | 'ltr' = directionOfLocale;

export function storedLocale(): Locale {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLocale(value) ? value : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

/** The active language, outside React (a request's header, a search). */
export function currentLocale(): Locale {
  return isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE;
}

/** The active language in a component, which re-renders when it changes. */
export function useLocale(): Locale {
  const { i18n: active } = useLingui();
  return isLocale(active.locale) ? active.locale : DEFAULT_LOCALE;
}

/**
 * Loads the catalog if needed, activates it, and sets lang and dir on the page. `remember`: the shell's
 * cookie names it too, so the next prerendered page is painted in it.
 */
async function showLocale(locale: Locale, remember = true): Promise<void> {
  if (locale === 'fr') {
    i18n.load('fr', frMessages);
  } else if (!i18n.messages || i18n.locale !== locale) {
    const { messages } = await loaders[locale]();
    i18n.load(locale, messages);
  }
  i18n.activate(locale);
  // Written only when they change: even the same value makes the browser restyle the whole page (the
  // design system's styles select on the direction), which a prerendered page pays at start-up.
  const root = document.documentElement;
  const dir = directionOf(locale);
  if (root.lang !== locale) root.lang = locale;
  if (root.dir !== dir) root.dir = dir;
  if (remember) rememberLanguageForShell(locale);
}

/**
 * Shows the page in this language and keeps the choice. Rejects, changing nothing, when the
 * language's catalog cannot be fetched (offline before the service worker had it).
 */
export async function activateLocale(locale: Locale): Promise<void> {
  await showLocale(locale);
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
  } catch {
    // Private mode or storage full: the choice lasts for this visit only.
  }
}

/**
 * Shows the page in this language for this visit only, keeping no choice (neither the stored one nor
 * the shell's cookie): a public page read by someone who never chose a language here. Rejects, changing
 * nothing, when the catalog cannot be fetched.
 */
export function showLocaleForVisit(locale: Locale): Promise<void> {
  return showLocale(locale, false);
}

/**
 * French is always loaded so any message missing from another catalog falls back to it. If the
 * chosen language's catalog cannot be fetched, the portal starts in French rather than not at all,
 * and the choice is kept for the next start.
 */
export async function initI18n(): Promise<void> {
  i18n.load('fr', frMessages);
  await showLocale(storedLocale()).catch(() => showLocale(DEFAULT_LOCALE));
}

export { i18n };
