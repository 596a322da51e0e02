/**
 * One wording for every error: the PWA's catalogs are its only source. Fails when the server's
 * answer and the PWA's own check would word a code differently in any language, when a code has
 * no reviewed translation, or when a message's id is no longer its code (the server finds the
 * words by code: server/i18n/messages.ts).
 */
import { setupI18n, type I18n, type Messages } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../contract';
import { LANGUAGES, messageFor, readCatalog, type Language } from '../../../server/i18n/messages';
import { ERROR_MESSAGES, errorMessage } from '../../../src/lib/error-messages';
import { messages as ar } from '../../../src/locales/ar/messages.po';
import { messages as en } from '../../../src/locales/en/messages.po';
import { messages as fr } from '../../../src/locales/fr/messages.po';

/** The catalogs as the build compiles them for the page. */
const COMPILED: Record<Language, Messages> = { fr, ar, en };

function pageI18n(language: Language): I18n {
  return setupI18n({ locale: language, messages: { [language]: COMPILED[language] } });
}

describe('the wording of error codes', () => {
  it('gives every code a message whose id is the code', () => {
    for (const code of ERROR_CODES) expect(ERROR_MESSAGES[code].id, code).toBe(code);
  });

  it.each(LANGUAGES)('is the same on the page and in the server’s answers in %s', (language) => {
    const i18n = pageI18n(language);
    const page = ERROR_CODES.map((code) => [code, errorMessage(i18n, code)]);
    const server = ERROR_CODES.map((code) => [code, messageFor(code, language)]);
    expect(server).toEqual(page);
  });

  it.each(['ar', 'en'] as const)('is translated and reviewed in %s for every code', (language) => {
    const catalog = readCatalog(language);
    const unfinished = ERROR_CODES.filter((code) => {
      const entry = catalog.get(code);
      return !entry?.translation.trim() || entry.fuzzy || entry.translation === messageFor(code, 'fr');
    });
    expect(unfinished).toEqual([]);
  });
});
