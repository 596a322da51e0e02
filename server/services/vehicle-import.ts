/**
 * Imports the vehicle registry from a CSV shaped like server/seed/vehicles.csv
 * (kode_id, vin, brand, model, year). Every row is checked; bad rows are reported, not imported.
 */
import { sql } from 'drizzle-orm';
import { KODE_ID_PATTERN } from '../../contract';
import type { Database } from '../db/client';
import { vehicles } from '../db/schema';
import { csvRecords } from './csv';

export interface ImportReport {
  imported: number;
  updated: number;
  unchanged: number;
  rejected: Array<{ line: number; kode_id: string; reason: string }>;
}

const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;
const REQUIRED_COLUMNS = ['kode_id', 'vin', 'brand', 'model', 'year'];
const BATCH_SIZE = 500;

type VehicleRow = typeof vehicles.$inferInsert;

function checkRow(record: Record<string, string>, maxYear: number): VehicleRow | string {
  const kodeId = (record.kode_id ?? '').toUpperCase();
  if (!KODE_ID_PATTERN.test(kodeId)) return 'kode_id must be 10 letters or digits';
  const vin = (record.vin ?? '').toUpperCase();
  if (!VIN_PATTERN.test(vin)) return 'vin must be 17 characters (letters except I, O, Q, and digits)';
  if (!record.brand) return 'brand is empty';
  if (!record.model) return 'model is empty';
  const year = Number(record.year);
  if (!Number.isInteger(year) || year < 1950 || year > maxYear)
    return `year must be a whole number from 1950 to ${maxYear}`;
  return { kode_id: kodeId, vin, brand: record.brand, model: record.model, year };
}

export async function importVehicles(
  db: Database,
  csv: string,
  options: { updateExisting: boolean; now?: Date } = { updateExisting: true },
): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, updated: 0, unchanged: 0, rejected: [] };
  const records = csvRecords(csv);
  const header = records[0] ? Object.keys(records[0].record) : [];
  const missing = REQUIRED_COLUMNS.filter((column) => records.length > 0 && !header.includes(column));
  if (missing.length > 0) {
    report.rejected.push({ line: 1, kode_id: '', reason: `missing columns: ${missing.join(', ')}` });
    return report;
  }
  const maxYear = (options.now ?? new Date()).getFullYear() + 1;
  const valid = new Map<string, VehicleRow>();
  for (const { line, record } of records) {
    const row = checkRow(record, maxYear);
    if (typeof row === 'string') report.rejected.push({ line, kode_id: record.kode_id ?? '', reason: row });
    else if (valid.has(row.kode_id))
      report.rejected.push({ line, kode_id: row.kode_id, reason: 'duplicate kode_id in file' });
    else valid.set(row.kode_id, row);
  }
  const rows = [...valid.values()];
  for (let start = 0; start < rows.length; start += BATCH_SIZE) {
    const batch = rows.slice(start, start + BATCH_SIZE);
    // xmax = 0 tells a fresh insert from an update of an existing row.
    const written = options.updateExisting
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
    report.imported += inserted;
    report.updated += written.length - inserted;
    report.unchanged += batch.length - written.length;
  }
  return report;
}
