/**
 * The page's language and direction (src/lib/i18n.ts). A prerendered page already carries its own:
 * writing the same again would make the browser restyle the whole page at start-up, so nothing is
 * written then; a new language is written at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale, initI18n } from '../../../src/lib/i18n';

afterEach(async () => {
  await activateLocale('fr');
  localStorage.clear();
});

/** The attributes written on <html> while `act` runs. */
async function writesOnHtml(act: () => Promise<void>): Promise<string[]> {
  const written: string[] = [];
  const note = (records: MutationRecord[]) => written.push(...records.map((record) => record.attributeName ?? ''));
  const observer = new MutationObserver(note);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang', 'dir'] });
  await act();
  note(observer.takeRecords());
  observer.disconnect();
  return written;
}

describe('the language on <html>', () => {
  it('is left as it is when the page already says it', async () => {
    document.documentElement.lang = 'fr';
    document.documentElement.dir = 'ltr';
    expect(await writesOnHtml(() => initI18n())).toEqual([]);
  });

  it('changes with the language, with its direction', async () => {
    await initI18n();
    expect(await writesOnHtml(() => activateLocale('ar'))).toEqual(['lang', 'dir']);
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
  });
});
