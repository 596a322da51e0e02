/**
 * Reading CSV files (RFC 4180) with csv-parse, for the vehicle import and the seed's fixtures
 * (README, "Importing the vehicle registry"). A record is reported with the file line it starts on,
 * as an editor numbers lines, whatever quoted line breaks or blank lines come before it; bytes that
 * are not UTF-8 are found per line rather than silently replaced.
 */
import { CsvError, parse } from 'csv-parse/sync';

export interface CsvRow {
  /** The file line the record starts on (1 for the first line). */
  line: number;
  /** The file line it ends on: later than `line` when a quoted field holds a line break. */
  lastLine: number;
  cells: string[];
}

/** Where the file stops being CSV: nothing after `line` could be read as records. */
export interface CsvSyntaxError {
  line: number;
  reason: string;
}

export interface CsvTable {
  /** Every record but blank lines, the header included. */
  rows: CsvRow[];
  error: CsvSyntaxError | null;
}

/** Our words for csv-parse's errors (https://csv.js.org/parse/errors/): what to correct in the file. */
function syntaxReason(error: unknown): string {
  const code = error instanceof CsvError ? error.code : null;
  switch (code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quote opened in this record is never closed, so the rest of the file cannot be read';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'a quoted field goes on after its closing quote (a quote inside a quoted field is written "")';
    case 'INVALID_OPENING_QUOTE':
      return 'a quote inside an unquoted field (quote the whole field, and write each quote in it as "")';
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return `not valid CSV: ${message.split('\n')[0] ?? ''}`.slice(0, 200);
    }
  }
}

/**
 * Every record of a CSV text with the lines it spans. Line breaks are CRLF, LF or CR alike. A syntax
 * error (an unclosed quote, text after a closing quote) ends the reading: the records before it are
 * returned, and the error names the line its own record starts on, not the line csv-parse stopped at,
 * which for a quote never closed is the end of the file.
 */
export function readCsv(text: string): CsvTable {
  // One kind of line break, so that csv-parse's line count is the editor's. A CR or CRLF inside a
  // quoted field becomes LF, which no field the portal reads may hold anyway.
  const normalised = text.replace(/\r\n?/g, '\n');
  const rows: CsvRow[] = [];
  let lastLine = 0;
  try {
    parse(normalised, {
      bom: true,
      // Blank lines come back as one empty field, so that every line is accounted for; dropped below.
      skip_empty_lines: false,
      // A row with a missing or extra field is the caller's to reject, not a reason to stop reading.
      relax_column_count: true,
      on_record: (cells: string[], context) => {
        // context.lines is the line the record ends on; its own line breaks are all in quoted fields.
        const breaks = cells.reduce((sum, cell) => sum + countLineBreaks(cell), 0);
        rows.push({ line: context.lines - breaks, lastLine: context.lines, cells });
        lastLine = context.lines;
        // Kept here rather than in parse's result: the rows are built once.
        return null;
      },
    });
  } catch (error) {
    // Blank lines are records here, so the failed record starts on the line after the last one read.
    return {
      rows: rows.filter((row) => !isBlank(row.cells)),
      error: { line: lastLine + 1, reason: syntaxReason(error) },
    };
  }
  return { rows: rows.filter((row) => !isBlank(row.cells)), error: null };
}

function countLineBreaks(value: string): number {
  let count = 0;
  for (let at = value.indexOf('\n'); at >= 0; at = value.indexOf('\n', at + 1)) count++;
  return count;
}

function isBlank(cells: string[]): boolean {
  return cells.every((cell) => cell.trim() === '');
}

/**
 * The records of a CSV file we ship (the seed's fixtures), keyed by the header line's names
 * (trimmed, lower case), values trimmed. A file that is not valid CSV is a bug of ours: it throws.
 */
export function csvRecords(text: string): Array<{ line: number; record: Record<string, string> }> {
  const { rows, error } = readCsv(text);
  if (error) throw new Error(`line ${error.line}: ${error.reason}`);
  const [header, ...records] = rows;
  if (!header) return [];
  const names = header.cells.map((name) => name.trim().toLowerCase());
  return records.map(({ line, cells }) => ({
    line,
    record: Object.fromEntries(names.map((name, column) => [name, (cells[column] ?? '').trim()])),
  }));
}

/** A file's bytes as text, and the lines (numbered as by readCsv) holding bytes that are not UTF-8. */
export interface DecodedText {
  text: string;
  /** Empty when the whole file is UTF-8. Those lines' bad bytes read as U+FFFD in `text`. */
  invalidLines: ReadonlySet<number>;
}

/**
 * Decodes UTF-8 (https://encoding.spec.whatwg.org/#utf-8-decoder), naming each line that is not:
 * a file saved as Latin-1 or Windows-1252 would otherwise import "Citroën" as "Citro�n".
 * LF and CR are never part of a multi-byte sequence, so the file can be checked line by line.
 */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  const strict = new TextDecoder('utf-8', { fatal: true });
  try {
    return { text: strict.decode(bytes), invalidLines: new Set() };
  } catch {
    // Not UTF-8 somewhere: find where, line by line, then decode leniently.
  }
  const invalidLines = new Set<number>();
  let line = 1;
  let start = 0;
  const checkLine = (end: number) => {
    try {
      strict.decode(bytes.subarray(start, end));
    } catch {
      invalidLines.add(line);
    }
  };
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte !== 0x0a && byte !== 0x0d) continue;
    checkLine(at);
    // CRLF is one line break, as readCsv counts it.
    if (byte === 0x0d && bytes[at + 1] === 0x0a) at++;
    line++;
    start = at + 1;
  }
  checkLine(bytes.length);
  return { text: new TextDecoder('utf-8').decode(bytes), invalidLines };
}
