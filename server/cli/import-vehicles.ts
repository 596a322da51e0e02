/**
 * npm run import:vehicles -- path/to/vehicles.csv
 *
 * Imports the vehicle registry from a CSV shaped like server/seed/vehicles.csv (kode_id, vin, brand,
 * model, year) into the configured database (DATABASE_URL, or PGlite under DATA_DIR), migrating it
 * first. New vehicles are inserted, changed ones updated, bad rows reported and skipped.
 * Exit code: 0 when every row was accepted, 1 when some were rejected, 2 on a usage, configuration,
 * file or database error.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { importVehicles, type ImportReport } from '../services/vehicle-import';
import {
  describeDatabase,
  errorMessage,
  isMain,
  loadCliConfig,
  processIo,
  withMigratedDatabase,
  type CliIo,
} from './shared';

export const USAGE = 'Usage: npm run import:vehicles -- <file.csv>';

export function formatReport(file: string, report: ImportReport): string[] {
  const lines = [
    `Vehicles from ${file}:`,
    `  imported:  ${report.imported}`,
    `  updated:   ${report.updated}`,
    `  unchanged: ${report.unchanged}`,
    `  rejected:  ${report.rejected.length}`,
  ];
  for (const row of report.rejected) {
    lines.push(`    line ${row.line}\t${row.kode_id || '(none)'}\t${row.reason}`);
  }
  return lines;
}

export async function runImportVehicles(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(USAGE);
    return 0;
  }
  const files = args.filter((arg) => arg !== '--');
  if (files.length !== 1 || !files[0]) {
    io.err(USAGE);
    return 2;
  }
  const file = path.resolve(io.cwd, files[0]);

  let csv: string;
  try {
    csv = await fs.readFile(file, 'utf8');
  } catch (error) {
    io.err(`Cannot read ${file}: ${errorMessage(error)}`);
    return 2;
  }

  const config = loadCliConfig(io);
  if (!config) return 2;

  return withMigratedDatabase(config, io, 'Import', async (database) => {
    const report = await importVehicles(database.db, csv, { updateExisting: true });
    io.out(`Database: ${describeDatabase(config)}`);
    for (const line of formatReport(file, report)) io.out(line);
    return report.rejected.length > 0 ? 1 : 0;
  });
}

if (isMain(import.meta.url)) {
  process.exitCode = await runImportVehicles(process.argv.slice(2), processIo());
}
