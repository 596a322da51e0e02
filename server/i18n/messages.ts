/**
 * The server's words for each ErrorCode, in the three languages of the portal. They are not
 * written here: they are the PWA's own, read once at start from its Lingui catalogs, where every
 * ErrorCode is a message whose id is the code (src/lib/error-messages.ts). So a message reads the
 * same whichever side checked the rule (docs/API.md#error-reasons).
 * The language is the first of fr, ar, en found in Accept-Language; French otherwise.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, type ErrorCode } from '../../contract';
import { readPo, type PoEntry } from './po';

export const LANGUAGES = ['fr', 'ar', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The catalogs live in the source tree, which the server runs from (`tsx server/server.ts`). */
const LOCALES_DIR = path.resolve(import.meta.dirname, '../../src/locales');

/** The live entries of one language's catalog, by id. */
export function readCatalog(language: Language): Map<string, PoEntry> {
  const text = fs.readFileSync(path.join(LOCALES_DIR, language, 'messages.po'), 'utf8');
  return new Map(readPo(text).map((entry) => [entry.id, entry]));
}

type Wording = Record<ErrorCode, Record<Language, string>>;

/**
 * Every code in every language. As the PWA's compiled catalogs do, an Arabic or English message
 * not translated yet reads in French; a code without French words is a broken catalog, so the
 * server refuses to start rather than answer with a bare code.
 */
function loadWording(): Wording {
  const catalogs = new Map(LANGUAGES.map((language) => [language, readCatalog(language)]));
  const words = (code: ErrorCode, language: Language) => catalogs.get(language)?.get(code)?.translation;
  const wording = {} as Wording;
  for (const code of ERROR_CODES) {
    const french = words(code, 'fr');
    if (!french) throw new Error(`src/locales/fr/messages.po has no message for the error code ${code}`);
    wording[code] = { fr: french, ar: words(code, 'ar') || french, en: words(code, 'en') || french };
  }
  return wording;
}

const WORDING = loadWording();

export function messageFor(code: ErrorCode, language: Language): string {
  return WORDING[code][language];
}

export function languageOf(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'fr';
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((param) => param.trim().startsWith('q='));
      return { lang: tag.trim().slice(0, 2).toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .sort((a, b) => b.q - a.q);
  const match = ranked.find((entry) => entry.lang === 'fr' || entry.lang === 'ar' || entry.lang === 'en');
  return (match?.lang as Language | undefined) ?? 'fr';
}
