/**
 * The PO reader the server takes its wording with (server/i18n/po.ts): what Lingui writes, read
 * exactly; what it does not write, read past rather than misread.
 */
import { describe, expect, it } from 'vitest';
import { readPo } from '../../../server/i18n/po';

const HEADER = ['msgid ""', 'msgstr ""', '"Language: en\\n"', '"X-Generator: @lingui/cli\\n"', ''];

const po = (...lines: string[]) => [...HEADER, ...lines].join('\n');

describe('readPo', () => {
  it('reads entries with explicit and generated ids, skipping the header', () => {
    const text = po(
      '#. js-lingui-explicit-id',
      '#: src/lib/error-messages.ts:14',
      'msgid "kode_id_invalid"',
      'msgstr "Please enter a valid KODE ID"',
      '',
      '#: src/features/auth/pages/LoginPage.tsx:40',
      `msgid "L'adresse e-mail est requise"`,
      'msgstr "Email address is required"',
      '',
    );
    expect(readPo(text)).toEqual([
      { id: 'kode_id_invalid', translation: 'Please enter a valid KODE ID', fuzzy: false },
      { id: "L'adresse e-mail est requise", translation: 'Email address is required', fuzzy: false },
    ]);
  });

  it('joins continued strings and keeps untranslated entries with an empty translation', () => {
    const text = po('msgid ""', '"long "', '"id"', 'msgstr ""', '"long "', '"text"', '', 'msgid "todo"', 'msgstr ""');
    expect(readPo(text)).toEqual([
      { id: 'long id', translation: 'long text', fuzzy: false },
      { id: 'todo', translation: '', fuzzy: false },
    ]);
  });

  it('undoes the escapes of quoted strings', () => {
    const text = po('msgid "quote"', String.raw`msgstr "a \"b\" c\\d\ne\tf"`);
    expect(readPo(text)).toEqual([{ id: 'quote', translation: 'a "b" c\\d\ne\tf', fuzzy: false }]);
  });

  it('marks fuzzy entries, and only them', () => {
    const text = po(
      '#, fuzzy, c-format',
      'msgid "a"',
      'msgstr "guess"',
      '',
      '#, c-format',
      'msgid "b"',
      'msgstr "sure"',
    );
    expect(readPo(text).map((entry) => [entry.id, entry.fuzzy])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  it('reads past obsolete, plural and context entries', () => {
    const text = po(
      '#~ msgid "gone"',
      '#~ msgstr "parti"',
      '',
      'msgid "one file"',
      'msgid_plural "{n} files"',
      'msgstr[0] "un fichier"',
      'msgstr[1] "{n} fichiers"',
      '',
      'msgctxt "menu"',
      'msgid "Open"',
      'msgstr "Ouvrir"',
      '',
      'msgid "kept"',
      'msgstr "gardé"',
    );
    expect(readPo(text)).toEqual([{ id: 'kept', translation: 'gardé', fuzzy: false }]);
  });

  it('reads CRLF files and entries not parted by a blank line', () => {
    const text = po('msgid "a"', 'msgstr "1"', '#: x.ts:1', 'msgid "b"', 'msgstr "2"', 'msgid "c"', 'msgstr "3"');
    expect(readPo(text.replace(/\n/g, '\r\n')).map((entry) => entry.translation)).toEqual(['1', '2', '3']);
  });

  it('throws, naming the line, on text that is not PO', () => {
    expect(() => readPo(po('msgid "a"', 'msgstr "1"', 'oops'))).toThrow(/line 8 .*oops/);
  });
});
