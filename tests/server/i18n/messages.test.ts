/**
 * The server's words for the error codes come from the PWA's catalogs (server/i18n/messages.ts);
 * tests/src/lib/error-wording.test.ts checks they are the very words the PWA shows.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../contract';
import { LANGUAGES, languageOf, messageFor, readCatalog } from '../../../server/i18n/messages';

describe('messageFor', () => {
  it('quotes the French texts of docs/PRODUCT.md#validation-rules', () => {
    expect(messageFor('kode_id_invalid', 'fr')).toBe('Veuillez saisir un KODE ID valide');
    expect(messageFor('email_required', 'fr')).toBe("L'adresse e-mail est requise");
    expect(messageFor('passwords_mismatch', 'en')).toBe("password don't match");
  });

  it.each(['session_revoked', 'session_not_found'] as const)(
    'words %s in French, Arabic and English, none read in another language',
    (code) => {
      const words = LANGUAGES.map((language) => messageFor(code, language));
      expect(new Set(words).size).toBe(LANGUAGES.length);
      for (const text of words) expect(text).not.toBe(code);
    },
  );

  it.each(LANGUAGES)('words every code in %s with its catalog translation', (language) => {
    const catalog = readCatalog(language);
    for (const code of ERROR_CODES) expect(messageFor(code, language), code).toBe(catalog.get(code)?.translation);
  });
});

describe('languageOf', () => {
  it.each([
    [undefined, 'fr'],
    ['', 'fr'],
    ['de-DE,de;q=0.9', 'fr'],
    ['ar-DZ,ar;q=0.9', 'ar'],
    ['en-GB,en;q=0.8', 'en'],
    ['de;q=1,en;q=0.5,ar;q=0.7', 'ar'],
    ['EN-us', 'en'],
    ['fr;q=0.1,en', 'en'],
    ['fr-DZ', 'fr'],
    ['ar-DZ', 'ar'],
    ['en-GB', 'en'],
    ['ar-DZ;q=0.5, en-GB;q=0.9, fr-FR;q=0.7', 'en'],
    ['fr-FR;q=0.8,ar-DZ;q=0.9', 'ar'],
    ['en;q=0', 'fr'],
    ['*', 'fr'],
    // Equal q-values: the order the browser wrote.
    ['ar-DZ,fr', 'ar'],
    ['en, ar', 'en'],
    ['de,ar-DZ,fr-FR', 'ar'],
  ] as const)('reads %j as %s', (header, language) => {
    expect(languageOf(header)).toBe(language);
  });
});
