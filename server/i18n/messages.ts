/**
 * The server's words for each ErrorCode, in the three languages of the portal. They are not
 * written here: they are the PWA's own, read once at start from its Lingui catalogs, where every
 * ErrorCode is a message whose id is the code (src/lib/error-messages.ts). So a message reads the
 * same whichever side checked the rule (docs/API.md#error-reasons).
 * The language is the one of fr, ar, en Accept-Language ranks highest; French otherwise.
 */
import { Negotiator } from '@fastify/accept-negotiator';
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

/**
 * The best of fr, ar, en by Accept-Language, q-values weighed by @fastify/accept-negotiator; a
 * region tag counts as its language (ar-DZ is ar). Among equal q-values the header's order wins, as
 * the browser wrote it (the negotiator breaks ties by the order of the values it is given).
 */
export function languageOf(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'fr';
  const ranges = acceptLanguage.split(',').map((range) =>
    range
      .trim()
      .replace(/^([a-z]+)-[^;]*/i, '$1')
      .toLowerCase(),
  );
  const place = (language: Language) => {
    const at = ranges.findIndex((range) => range === language || range.startsWith(`${language};`));
    return at === -1 ? ranges.length : at;
  };
  const inHeaderOrder = [...LANGUAGES].sort((a, b) => place(a) - place(b));
  return new Negotiator<Language>({ supportedValues: inHeaderOrder }).negotiate(ranges.join(',')) ?? 'fr';
}
