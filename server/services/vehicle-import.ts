/**
 * Imports the vehicle registry from a CSV shaped like server/seed/vehicles.csv (kode_id, vin, brand,
 * model, year); README.md#importing-vehicles. The whole file is checked first, every field with the
 * contract's rules (registryVehicle), and only then written, in one transaction: a row the database
 * refuses, or a crash, leaves the registry as it was. A file with a rejected row writes nothing unless
 * the caller asks for the valid rows (skipInvalid); a dry run writes and rolls back, so its counts are
 * exactly those of a real run.
 */
import { sql } from 'drizzle-orm';
import {
  registryVehicle,
  SINGLE_LINE_TEXT,
  VEHICLE_BRAND_MAX_LENGTH,
  VEHICLE_MODEL_MAX_LENGTH,
  VEHICLE_YEAR_MIN,
  vehicleYearMax,
} from '../../contract';
import type { Database } from '../db/client';
import { vehicles } from '../db/schema';
import { readCsv, type CsvRow, type DecodedText } from './csv';

export interface Rejection {
  /** The file line the rejected record starts on. */
  line: number;
  /** As the file has it, empty when it has none. */
  kode_id: string;
  reason: string;
}

export interface WriteCounts {
  /** New vehicles. */
  imported: number;
  /** Vehicles already stored that the file changes. */
  updated: number;
  /** Vehicles already stored exactly as the file has them. */
  unchanged: number;
}

export interface VehicleFileCheck {
  /** Records read after the header, blank lines not counted. */
  read: number;
  valid: VehicleRow[];
  /** In file order. */
  rejected: Rejection[];
  /** Set when the file cannot be read to its end, or has no usable header: then nothing may be written. */
  unreadable: Rejection | null;
}

export interface ImportReport extends WriteCounts {
  read: number;
  rejected: Rejection[];
  /** Whether the valid rows were written (and, in a dry run, rolled back). */
  written: boolean;
}

type VehicleRow = typeof vehicles.$inferInsert;

const FIELDS = ['kode_id', 'vin', 'brand', 'model', 'year'] as const;
type Field = (typeof FIELDS)[number];
const MAX_LENGTH: Partial<Record<Field, number>> = {
  brand: VEHICLE_BRAND_MAX_LENGTH,
  model: VEHICLE_MODEL_MAX_LENGTH,
};
/** 500 rows of 5 values: well under PostgreSQL's 65,535 parameters a statement. */
const BATCH_SIZE = 500;

/**
 * Why a value with a control character (SINGLE_LINE_TEXT says which) is refused, naming its first one:
 * in words for the two a spreadsheet puts there, a line break (only a quoted value can hold one: readCsv
 * made every kind LF) with the file line it ends, and a tab; as U+XXXX for the others.
 * `cellLine`: the file line the value's cell starts on.
 */
function controlCharacterReason(field: Field, value: string, cellLine: number): string {
  const character = [...value].find((candidate) => !SINGLE_LINE_TEXT.test(candidate)) ?? '';
  if (character === '\n') return `${field} holds a line break (inside quotes, at the end of line ${cellLine})`;
  if (character === '\t') return `${field} holds a tab`;
  const codePoint = (character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `${field} holds a control character (U+${codePoint})`;
}

/** The file line a record's cell starts on: its record's first, moved down by earlier cells' line breaks. */
function cellStartLine(record: CsvRow, column: number): number {
  return record.line + record.cells.slice(0, column).join('').split('\n').length - 1;
}

function reasonFor(field: Field, issue: { code: string }, maxYear: number): string {
  switch (field) {
    case 'kode_id':
      return 'kode_id must be 10 letters or digits';
    case 'vin':
      return 'vin must be 17 characters (letters except I, O, Q, and digits)';
    case 'year':
      return `year must be a whole number from ${VEHICLE_YEAR_MIN} to ${maxYear}, in plain digits`;
    default:
      if (issue.code === 'too_small') return `${field} is empty`;
      if (issue.code === 'too_big') return `${field} is longer than ${MAX_LENGTH[field] ?? '?'} characters`;
      return `${field} is not valid`;
  }
}

/**
 * Spaces around a value are dropped, as a spreadsheet pads; tabs and line breaks are not, so that they
 * are refused as control characters rather than silently cut.
 */
function trimSpaces(value: string): string {
  return value.replace(/^ +| +$/g, '');
}

/** Checks a whole file without touching the database. `now` fixes the latest model year. */
export function checkVehicleFile(file: DecodedText, now: Date = new Date()): VehicleFileCheck {
  const maxYear = vehicleYearMax(now);
  const schema = registryVehicle(maxYear);
  const { rows, error } = readCsv(file.text);
  const result: VehicleFileCheck = { read: 0, valid: [], rejected: [], unreadable: null };
  const refuseFile = (rejection: Rejection) => {
    result.rejected.push(rejection);
    result.unreadable = rejection;
    return result;
  };
  const [header, ...records] = rows;
  if (!header) {
    return refuseFile({
      line: error?.line ?? 1,
      kode_id: '',
      reason: error?.reason ?? 'the file is empty: no header line',
    });
  }
  if (file.invalidLines.has(header.line)) {
    return refuseFile({ line: header.line, kode_id: '', reason: 'not valid UTF-8 (save the file as UTF-8)' });
  }
  const names = header.cells.map((name) => trimSpaces(name).toLowerCase());
  const missing = FIELDS.filter((field) => !names.includes(field));
  if (missing.length > 0) {
    return refuseFile({ line: header.line, kode_id: '', reason: `missing columns: ${missing.join(', ')}` });
  }
  const columns = Object.fromEntries(FIELDS.map((field) => [field, names.indexOf(field)])) as Record<Field, number>;

  const firstLineOf = new Map<string, number>();
  for (const record of records) {
    const { line, lastLine, cells } = record;
    result.read++;
    const values = Object.fromEntries(
      FIELDS.map((field) => [field, trimSpaces(cells[columns[field]] ?? '')]),
    ) as Record<Field, string>;
    values.kode_id = values.kode_id.toUpperCase();
    values.vin = values.vin.toUpperCase();
    const reject = (reason: string) => result.rejected.push({ line, kode_id: values.kode_id, reason });

    let badBytes = false;
    for (let at = line; at <= lastLine && !badBytes; at++) badBytes = file.invalidLines.has(at);
    if (badBytes) {
      reject('not valid UTF-8 (was the file saved as Latin-1 or Windows-1252? save it as UTF-8)');
      continue;
    }
    if (cells.length < names.length || cells.slice(names.length).some((cell) => cell.trim() !== '')) {
      reject(`${cells.length} fields where the header has ${names.length} (quote a value that holds a comma)`);
      continue;
    }
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      const issues = parsed.error.issues;
      const field = FIELDS.find((name) => issues.some((issue) => issue.path[0] === name)) ?? 'kode_id';
      const issue = issues.find((candidate) => candidate.path[0] === field) ?? { code: '', message: '' };
      reject(
        issue.message === 'invalid_characters'
          ? controlCharacterReason(field, values[field], cellStartLine(record, columns[field]))
          : reasonFor(field, issue, maxYear),
      );
      continue;
    }
    const first = firstLineOf.get(values.kode_id);
    if (first !== undefined) {
      reject(`duplicate kode_id in file (first on line ${first})`);
      continue;
    }
    firstLineOf.set(values.kode_id, line);
    result.valid.push({ ...parsed.data, year: Number(parsed.data.year) });
  }
  if (error) refuseFile({ line: error.line, kode_id: '', reason: error.reason });
  return result;
}

/** Thrown inside a dry run's transaction to roll it back with what it would have written. */
class DryRunRollback extends Error {
  constructor(readonly counts: WriteCounts) {
    super('dry run');
  }
}

type Inserter = Pick<Database, 'insert'>;

async function upsert(db: Inserter, rows: VehicleRow[], updateExisting: boolean): Promise<WriteCounts> {
  const counts: WriteCounts = { imported: 0, updated: 0, unchanged: 0 };
  for (let start = 0; start < rows.length; start += BATCH_SIZE) {
    const batch = rows.slice(start, start + BATCH_SIZE);
    // xmax = 0 tells a fresh insert from an update of an existing row.
    const written = updateExisting
      ? await db
          .insert(vehicles)
          .values(batch)
          .onConflictDoUpdate({
            target: vehicles.kode_id,
            set: {
              vin: sql`excluded.vin`,
              brand: sql`excluded.brand`,
              model: sql`excluded.model`,
              year: sql`excluded.year`,
              updated_at: sql`now()`,
            },
            setWhere: sql`(${vehicles.vin}, ${vehicles.brand}, ${vehicles.model}, ${vehicles.year}) is distinct from (excluded.vin, excluded.brand, excluded.model, excluded.year)`,
          })
          .returning({ inserted: sql<boolean>`(xmax = 0)` })
      : await db
          .insert(vehicles)
          .values(batch)
          .onConflictDoNothing()
          .returning({ inserted: sql<boolean>`true` });
    const inserted = written.filter((row) => row.inserted).length;
    counts.imported += inserted;
    counts.updated += written.length - inserted;
    counts.unchanged += batch.length - written.length;
  }
  return counts;
}

/**
 * Writes checked rows in one transaction: all of them or, if the database refuses one, none. A dry run
 * rolls the transaction back and reports what it would have written.
 */
export async function writeVehicles(
  db: Database,
  rows: VehicleRow[],
  options: { updateExisting: boolean; dryRun?: boolean },
): Promise<WriteCounts> {
  try {
    return await db.transaction(async (tx) => {
      const counts = await upsert(tx, rows, options.updateExisting);
      if (options.dryRun) throw new DryRunRollback(counts);
      return counts;
    });
  } catch (error) {
    if (error instanceof DryRunRollback) return error.counts;
    throw error;
  }
}

/** Checks then writes a CSV text (the seed's file): nothing is written if any row is rejected, unless skipInvalid. */
export async function importVehicles(
  db: Database,
  csv: string,
  options: { updateExisting: boolean; skipInvalid?: boolean; now?: Date },
): Promise<ImportReport> {
  const check = checkVehicleFile({ text: csv, invalidLines: new Set() }, options.now);
  const report: ImportReport = {
    read: check.read,
    imported: 0,
    updated: 0,
    unchanged: 0,
    rejected: check.rejected,
    written: false,
  };
  if (check.unreadable || (check.rejected.length > 0 && !options.skipInvalid)) return report;
  Object.assign(report, await writeVehicles(db, check.valid, { updateExisting: options.updateExisting }));
  report.written = true;
  return report;
}
