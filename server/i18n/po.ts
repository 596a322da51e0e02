/**
 * A reader for the gettext PO files Lingui writes (src/locales/<lang>/messages.po): enough of the
 * format for the server to take its wording from the PWA's catalogs (docs/API.md#error-reasons).
 * The parsing is pofile's, the library Lingui's own PO format (@lingui/format-po) reads with.
 * Pure text in, entries out, so the PWA's tests can use it too.
 */
import PO from 'pofile';

export interface PoEntry {
  /** msgid: the explicit id, or the French source text when the message has none. */
  id: string;
  /** msgstr; '' while untranslated. */
  translation: string;
  /** Marked `#, fuzzy`: a translator's guess still to be reviewed. */
  fuzzy: boolean;
}

/**
 * What a line of a PO file may be: blank, a comment (`#…`, obsolete `#~` included), a keyword or a
 * quoted continuation. pofile takes any other line as a continuation and would glue it into the
 * text, so a damaged catalog is refused here instead.
 */
const PO_LINE = /^(?:$|#|"|(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s)/;

/**
 * The live entries of a PO file, in file order. Read past: the header (empty msgid), obsolete `#~`
 * entries, plural entries (Lingui keeps plurals inside the ICU text, so it writes none) and entries
 * with a msgctxt (Lingui writes none; such an entry is not the plain id it seems to be).
 * Throws on a line that is none of comment, keyword or continuation: a damaged catalog.
 */
export function readPo(text: string): PoEntry[] {
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!PO_LINE.test(line)) throw new Error(`line ${index + 1} of the PO file is not PO: ${line}`);
  }
  return PO.parse(text)
    .items.filter(
      (item) =>
        item.msgid !== '' &&
        !item.obsolete &&
        item.msgctxt == null &&
        item.msgid_plural == null &&
        item.msgstr.length === 1,
    )
    .map((item) => ({ id: item.msgid, translation: item.msgstr[0] ?? '', fuzzy: item.flags.fuzzy === true }));
}
