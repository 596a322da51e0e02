/**
 * npm run import:vehicles -- [--dry-run] [--skip-invalid] path/to/vehicles.csv
 *
 * Imports the vehicle registry from a CSV shaped like server/seed/vehicles.csv (kode_id, vin, brand,
 * model, year) into the configured database (DATABASE_URL, or PGlite under DATA_DIR), migrating it
 * first; README.md#importing-vehicles. The file is checked whole, then written in one transaction: new
 * vehicles inserted, changed ones updated. By default a file with any rejected row changes nothing;
 * --skip-invalid writes its valid rows; --dry-run checks and counts everything and writes nothing.
 * Exit code: 0 when every row was accepted, 1 when some were rejected, 2 on a usage, configuration,
 * file or database error.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { SINGLE_LINE_TEXT } from '../../contract';
import type { DatabaseHandle } from '../db/client';
import { decodeUtf8 } from '../services/csv';
import {
  checkVehicleFile,
  writeVehicles,
  type Rejection,
  type VehicleFileCheck,
  type WriteCounts,
} from '../services/vehicle-import';
import {
  describeDatabase,
  embeddedDatabaseDir,
  errorMessage,
  isMain,
  loadCliConfig,
  processIo,
  withDatabase,
  type CliIo,
} from './shared';

export const USAGE = 'Usage: npm run import:vehicles -- [--dry-run] [--skip-invalid] <file.csv>';

/** The report lists this many rejections, the first in the file; the rest are counted. */
export const REJECTIONS_LISTED = 20;
/** A KODE ID is 10 characters: more is a wrong column, not worth printing whole. */
const KODE_ID_SHOWN = 20;

export interface ImportOutcome extends WriteCounts {
  read: number;
  rejected: Rejection[];
  dryRun: boolean;
}

/** A value from the file as the report may print it: one line, short. */
function printable(value: string): string {
  if (value === '') return '(none)';
  const shown = [...value].map((character) => (SINGLE_LINE_TEXT.test(character) ? character : '?')).join('');
  return shown.length > KODE_ID_SHOWN ? `${shown.slice(0, KODE_ID_SHOWN)}…` : shown;
}

/** The summary line: "read N, imported N, updated N, unchanged N, rejected N". */
export function summaryLine(outcome: ImportOutcome): string {
  const counts = `read ${outcome.read}, imported ${outcome.imported}, updated ${outcome.updated}, unchanged ${outcome.unchanged}, rejected ${outcome.rejected.length}`;
  return outcome.dryRun ? `${counts} (dry run: nothing was written)` : counts;
}

export function formatReport(file: string, outcome: ImportOutcome): string[] {
  const lines = [
    `Vehicles from ${file}${outcome.dryRun ? ' (dry run)' : ''}:`,
    `  read:      ${outcome.read}`,
    `  imported:  ${outcome.imported}`,
    `  updated:   ${outcome.updated}`,
    `  unchanged: ${outcome.unchanged}`,
    `  rejected:  ${outcome.rejected.length}`,
  ];
  for (const row of outcome.rejected.slice(0, REJECTIONS_LISTED)) {
    lines.push(`    line ${row.line}\t${printable(row.kode_id)}\t${row.reason}`);
  }
  const unlisted = outcome.rejected.length - REJECTIONS_LISTED;
  if (unlisted > 0) lines.push(`    … and ${unlisted} more`);
  lines.push(summaryLine(outcome));
  return lines;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** Why nothing was written, in one line for stderr. */
function nothingImported(check: VehicleFileCheck): string {
  if (check.unreadable) {
    return `Nothing was imported: line ${check.unreadable.line}: ${check.unreadable.reason}. Correct the file and run again.`;
  }
  const rejected = check.rejected.length;
  const correct = `Correct ${rejected === 1 ? 'it' : 'them'} and run again`;
  const valid = check.valid.length;
  const skip = valid > 0 ? `, or add --skip-invalid to import the ${plural(valid, 'valid row', 'valid rows')}` : '';
  return `Nothing was imported: ${plural(rejected, 'row was', 'rows were')} rejected. ${correct}${skip}.`;
}

interface Arguments {
  file: string;
  dryRun: boolean;
  skipInvalid: boolean;
}

function parseArguments(args: string[], io: CliIo): Arguments | number {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(USAGE);
    return 0;
  }
  const files: string[] = [];
  let dryRun = false;
  let skipInvalid = false;
  for (const arg of args) {
    if (arg === '--') continue;
    else if (arg === '--dry-run') dryRun = true;
    else if (arg === '--skip-invalid') skipInvalid = true;
    else if (arg.startsWith('-') && arg !== '-') {
      io.err(`Unknown option ${arg}`);
      io.err(USAGE);
      return 2;
    } else files.push(arg);
  }
  const [file] = files;
  if (files.length !== 1 || !file) {
    io.err(USAGE);
    return 2;
  }
  return { file, dryRun, skipInvalid };
}

/**
 * What a dry run compares with: the database as it is, unmigrated included. A database that does not
 * exist yet (no DATA_DIR/pglite) is not created, and one without the vehicles table makes every valid
 * row new, as the real run (which migrates first) would.
 */
async function dryRunCounts(database: DatabaseHandle, check: VehicleFileCheck): Promise<WriteCounts> {
  // Both drivers answer { rows }; Drizzle types a raw query's result per driver, here as unknown.
  const result: unknown = await database.db.execute(sql`select to_regclass('public.vehicles') is not null as present`);
  const rows = (result as { rows?: unknown }).rows;
  const present = Array.isArray(rows) && (rows[0] as { present?: unknown } | undefined)?.present === true;
  if (!present) return { imported: check.valid.length, updated: 0, unchanged: 0 };
  return writeVehicles(database.db, check.valid, { updateExisting: true, dryRun: true });
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

export async function runImportVehicles(args: string[], io: CliIo): Promise<number> {
  const parsed = parseArguments(args, io);
  if (typeof parsed === 'number') return parsed;
  const { dryRun, skipInvalid } = parsed;
  const file = path.resolve(io.cwd, parsed.file);

  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (error) {
    io.err(`Cannot read ${file}: ${errorMessage(error)}`);
    return 2;
  }

  const config = loadCliConfig(io);
  if (!config) return 2;

  const check = checkVehicleFile(decodeUtf8(bytes));
  const outcome: ImportOutcome = {
    read: check.read,
    imported: 0,
    updated: 0,
    unchanged: 0,
    rejected: check.rejected,
    dryRun,
  };
  const exitCode = check.rejected.length > 0 ? 1 : 0;
  const report = () => {
    for (const line of formatReport(file, outcome)) io.out(line);
  };

  if (check.unreadable || (check.rejected.length > 0 && !skipInvalid)) {
    io.out(`Database: ${describeDatabase(config)} (not opened: nothing to write)`);
    report();
    io.err(nothingImported(check));
    return 1;
  }

  if (dryRun && !config.databaseUrl && !(await exists(embeddedDatabaseDir(config)))) {
    io.out(`Database: ${describeDatabase(config)} (does not exist yet: every valid row is new)`);
    outcome.imported = check.valid.length;
    report();
    return exitCode;
  }

  return withDatabase(
    config,
    io,
    dryRun ? 'Dry run' : 'Import',
    async (database) => {
      const counts = dryRun
        ? await dryRunCounts(database, check)
        : await writeVehicles(database.db, check.valid, { updateExisting: true });
      Object.assign(outcome, counts);
      io.out(`Database: ${describeDatabase(config)}`);
      report();
      if (check.rejected.length > 0) {
        const valid = check.valid.length;
        const verb = dryRun ? 'would be' : valid === 1 ? 'was' : 'were';
        io.err(
          `${plural(check.rejected.length, 'row was', 'rows were')} rejected; ${plural(valid, 'valid row', 'valid rows')} ${verb} imported (--skip-invalid).`,
        );
      }
      return exitCode;
    },
    // A dry run leaves even the schema as it is.
    { migrate: !dryRun },
  );
}

if (isMain(import.meta.url)) {
  process.exitCode = await runImportVehicles(process.argv.slice(2), processIo());
}
