/**
 * A reader for the gettext PO files Lingui writes (src/locales/<lang>/messages.po): enough of the
 * format for the server to take its wording from the PWA's catalogs (docs/API.md#error-reasons).
 * Pure text in, entries out, so the PWA's tests can use it too.
 */

export interface PoEntry {
  /** msgid: the explicit id, or the French source text when the message has none. */
  id: string;
  /** msgstr; '' while untranslated. */
  translation: string;
  /** Marked `#, fuzzy`: a translator's guess still to be reviewed. */
  fuzzy: boolean;
}

type Field = 'msgctxt' | 'msgid' | 'msgid_plural' | 'msgstr';

/** One entry while it is being read. */
class Draft {
  readonly fields: Partial<Record<Field, string>> = {};
  fuzzy = false;
  /** Obsolete (`#~`) or plural (`msgstr[n]`): read past, never answered. */
  skipped = false;
  current: Field | null = null;

  /** Whether a line starting a new entry would end this one. */
  get complete(): boolean {
    return this.fields.msgstr !== undefined || this.skipped;
  }

  entry(): PoEntry | null {
    const { msgctxt, msgid, msgid_plural, msgstr } = this.fields;
    if (this.skipped || !msgid || msgstr === undefined || msgctxt !== undefined || msgid_plural !== undefined) {
      return null;
    }
    return { id: msgid, translation: msgstr, fuzzy: this.fuzzy };
  }
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };

/** The text of one quoted PO string: `"a \"b\""` → `a "b"`. */
export function unquotePo(quoted: string): string {
  const trimmed = quoted.trim();
  if (trimmed.length < 2 || !trimmed.startsWith('"') || !trimmed.endsWith('"')) {
    throw new Error(`not a quoted PO string: ${quoted}`);
  }
  return trimmed.slice(1, -1).replace(/\\(.)/g, (_, char: string) => ESCAPES[char] ?? char);
}

/**
 * The live entries of a PO file, in file order. Read past: the header (empty msgid), obsolete `#~`
 * entries, plural entries (Lingui keeps plurals inside the ICU text, so it writes none) and entries
 * with a msgctxt (Lingui writes none; such an entry is not the plain id it seems to be).
 * Throws on a line that is none of comment, keyword or continuation: a damaged catalog.
 */
export function readPo(text: string): PoEntry[] {
  const entries: PoEntry[] = [];
  let draft = new Draft();
  const finish = () => {
    const entry = draft.entry();
    if (entry) entries.push(entry);
    draft = new Draft();
  };
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '') finish();
    else if (startsEntry(line) && draft.complete) {
      finish();
      readLine(line, draft, index);
    } else readLine(line, draft, index);
  }
  finish();
  return entries;
}

/** Comments and the first keywords of an entry; after a msgstr they begin the next entry. */
function startsEntry(line: string): boolean {
  return line.startsWith('#') || /^msg(ctxt|id)\s/.test(line);
}

function readLine(line: string, draft: Draft, index: number): void {
  if (line.startsWith('#~')) draft.skipped = true;
  else if (line.startsWith('#,')) draft.fuzzy ||= /\bfuzzy\b/.test(line);
  else if (line.startsWith('#')) return;
  else if (/^msgstr\[\d+\]\s/.test(line)) draft.skipped = true;
  else readString(line, draft, index);
}

function readString(line: string, draft: Draft, index: number): void {
  const keyword = /^(msgctxt|msgid|msgid_plural|msgstr)\s+(".*")$/.exec(line);
  if (keyword) {
    draft.current = keyword[1] as Field;
    draft.fields[draft.current] = unquotePo(keyword[2]!);
  } else if (draft.current && line.startsWith('"')) {
    draft.fields[draft.current] += unquotePo(line);
  } else if (!draft.skipped) {
    throw new Error(`line ${index + 1} of the PO file is not PO: ${line}`);
  }
}
