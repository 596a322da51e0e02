// @vitest-environment node
/**
 * Every message of the French source catalogs is translated in Arabic and English, with the same
 * placeholders and tags. Run `npm run extract` after adding a string; this test then names what
 * still needs translating. Besides the app's catalog, the scanner, the odometer photo, the sending
 * panel, the connected devices, the dashboard's History, Advices and timeline, and a certificate's public
 * page have their own, loaded with them (lingui.config.ts).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCatalog } from '../../../server/i18n/messages';
import { readPo } from '../../../server/i18n/po';

type Catalog = ReturnType<typeof readCatalog>;

/** A part's own catalog (lingui.config.ts), by the folder of its locales. */
const partCatalog =
  (folder: string) =>
  (locale: string): Catalog =>
    new Map(readPo(fs.readFileSync(`${folder}/${locale}/messages.po`, 'utf8')).map((entry) => [entry.id, entry]));

const CATALOGS: [string, (locale: 'fr' | 'ar' | 'en') => Catalog, number][] = [
  ['app', readCatalog, 100],
  ['scanner', partCatalog('src/features/dashboard/scan/locales'), 20],
  ['photo', partCatalog('src/locales/photo'), 20],
  ['connected devices', partCatalog('src/locales/devices'), 20],
  ['sending panel', partCatalog('src/features/sync/locales'), 40],
  ['history', partCatalog('src/features/dashboard/locales'), 50],
  ['certificate page', partCatalog('src/locales/certificate'), 40],
];

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)|<\/?(\d+)\/?>/g)].map((match) => match[0]).sort();

describe.each(
  CATALOGS.flatMap(([name, read, size]) => (['ar', 'en'] as const).map((locale) => ({ name, read, size, locale }))),
)('the $name catalog in $locale', ({ read, size, locale }) => {
  const source = [...read('fr').values()];
  const target = new Map([...read(locale).values()].map((entry) => [entry.id, entry.translation]));

  it('has every message of the French catalog', () => {
    expect(source.length).toBeGreaterThan(size);
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
