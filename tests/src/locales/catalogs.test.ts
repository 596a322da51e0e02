// @vitest-environment node
/**
 * Every message of the French source catalog is translated in Arabic and English, with the same
 * placeholders and tags. Run `npm run extract` after adding a string; this test then names what
 * still needs translating.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const LOCALES_DIR = path.resolve(import.meta.dirname, '../../../src/locales');

interface Entry {
  id: string;
  translation: string;
}

/** Reads the live (not obsolete `#~`) entries of a PO file, joining continued strings. */
function readCatalog(locale: string): Entry[] {
  const text = fs.readFileSync(path.join(LOCALES_DIR, locale, 'messages.po'), 'utf8');
  const entries: Entry[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split('\n').filter((line) => !line.startsWith('#'));
    const field = (name: string) => {
      const start = lines.findIndex((line) => line.startsWith(`${name} `));
      if (start < 0) return null;
      const parts = [lines[start]!.slice(name.length + 1)];
      for (let i = start + 1; i < lines.length && lines[i]!.startsWith('"'); i++) parts.push(lines[i]!);
      return parts.map((part) => JSON.parse(part) as string).join('');
    };
    const id = field('msgid');
    const translation = field('msgstr');
    if (id && translation !== null) entries.push({ id, translation });
  }
  return entries;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)|<\/?(\d+)\/?>/g)].map((match) => match[0]).sort();

describe.each(['ar', 'en'])('the %s catalog', (locale) => {
  const source = readCatalog('fr');
  const target = new Map(readCatalog(locale).map((entry) => [entry.id, entry.translation]));

  it('has every message of the French catalog', () => {
    expect(source.length).toBeGreaterThan(100);
    const missing = source.filter((entry) => !target.get(entry.id)?.trim()).map((entry) => entry.id);
    expect(missing).toEqual([]);
  });

  it('keeps every placeholder and tag of the French text', () => {
    const broken = source
      .filter((entry) => target.get(entry.id))
      .filter((entry) => {
        const french = placeholders(entry.translation || entry.id).filter(
          (token) => !/^\{(one|other|zero|two|few|many)$/.test(token),
        );
        const translated = placeholders(target.get(entry.id)!).filter(
          (token) => !/^\{(one|other|zero|two|few|many)$/.test(token),
        );
        return (
          new Set(french).size !== new Set(translated).size ||
          [...new Set(french)].some((token) => !translated.includes(token))
        );
      })
      .map((entry) => entry.id);
    expect(broken).toEqual([]);
  });
});
