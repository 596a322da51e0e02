import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { asc, count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImportVehicles } from '../../../server/cli/import-vehicles';
import { vehicles } from '../../../server/db/schema';
import { createCliDatabase, recordingIo, type CliDatabase } from './cli-support';

const HEADER = 'kode_id,vin,brand,model,year';
const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('npm run import:vehicles', () => {
  let db: CliDatabase;
  beforeAll(async () => {
    db = await createCliDatabase();
  });
  afterAll(() => db.cleanup());

  const writeCsv = async (name: string, lines: string[]) => {
    const file = path.join(db.dataDir, name);
    await fs.writeFile(file, `${lines.join('\n')}\n`);
    return file;
  };
  const storedVehicles = async () => {
    const handle = await db.open();
    try {
      return await handle.db
        .select({ kode_id: vehicles.kode_id, model: vehicles.model, year: vehicles.year })
        .from(vehicles)
        .orderBy(asc(vehicles.kode_id));
    } finally {
      await handle.close();
    }
  };

  it('migrates an empty database, imports every row and exits 0', async () => {
    const file = await writeCsv('first.csv', [
      HEADER,
      'AAAA000001,VF1S1CD16RB267735,Renault,Symbol,2024',
      'aaaa000002,vf12t7vy4hj685969,Renault,Clio 5,2017',
      '"AAAA000003","UU1UR8P23FT017572","Dacia","Logan, phase 2",2015',
    ]);
    const io = recordingIo(db.env);
    expect(await runImportVehicles([file], io)).toBe(0);
    expect(io.stderr).toEqual([]);
    const report = io.stdout.join('\n');
    expect(report).toContain(`Vehicles from ${file}:`);
    expect(report).toMatch(/imported:\s+3\n/);
    expect(report).toMatch(/updated:\s+0\n/);
    expect(report).toMatch(/unchanged:\s+0\n/);
    expect(report).toMatch(/rejected:\s+0\n/);
    expect(report).toMatch(/\nread 3, imported 3, updated 0, unchanged 0, rejected 0$/);
    expect(await storedVehicles()).toEqual([
      { kode_id: 'AAAA000001', model: 'Symbol', year: 2024 },
      { kode_id: 'AAAA000002', model: 'Clio 5', year: 2017 },
      { kode_id: 'AAAA000003', model: 'Logan, phase 2', year: 2015 },
    ]);
  });

  it('with --skip-invalid, updates changed vehicles, counts unchanged ones, and reports each rejected row; exit 1', async () => {
    const file = await writeCsv('second.csv', [
      HEADER,
      'AAAA000001,VF1S1CD16RB267735,Renault,Symbol,2024',
      'AAAA000002,VF12T7VY4HJ685969,Renault,Clio 5 Limited,2018',
      'AAAA000004,WBA8E9G50GNT12345,BMW,320d,2016',
      'SHORT,WBA8E9G50GNT12345,BMW,320d,2016',
      'AAAA000005,NOT-A-VIN,BMW,320d,2016',
      'AAAA000006,WBA8E9G50GNT12346,BMW,320d,1900',
      'AAAA000007,WBA8E9G50GNT12347,,320d,2016',
      'AAAA000004,WBA8E9G50GNT12345,BMW,320d,2016',
    ]);
    // By default a rejected row means nothing is written.
    const strict = recordingIo(db.env);
    expect(await runImportVehicles([file], strict)).toBe(1);
    expect(strict.stdout.join('\n')).toContain('read 8, imported 0, updated 0, unchanged 0, rejected 5');
    expect(strict.stderr).toEqual([
      'Nothing was imported: 5 rows were rejected. Correct them and run again, or add --skip-invalid to import the 3 valid rows.',
    ]);
    expect((await storedVehicles()).map((v) => v.kode_id)).toEqual(['AAAA000001', 'AAAA000002', 'AAAA000003']);

    const io = recordingIo(db.env);
    expect(await runImportVehicles(['--skip-invalid', file], io)).toBe(1);
    const report = io.stdout.join('\n');
    expect(report).toContain('read 8, imported 1, updated 1, unchanged 1, rejected 5');
    expect(report).toMatch(/imported:\s+1\n/);
    expect(report).toMatch(/updated:\s+1\n/);
    expect(report).toMatch(/unchanged:\s+1\n/);
    expect(report).toMatch(/rejected:\s+5\n/);
    expect(report).toContain('line 5\tSHORT\tkode_id must be 10 letters or digits');
    expect(report).toContain('line 6\tAAAA000005\tvin must be 17 characters');
    expect(report).toMatch(/line 7\tAAAA000006\tyear must be a whole number from 1950 to \d{4}/);
    expect(report).toContain('line 8\tAAAA000007\tbrand is empty');
    expect(report).toContain('line 9\tAAAA000004\tduplicate kode_id in file (first on line 4)');
    const stored = await storedVehicles();
    expect(stored.map((v) => v.kode_id)).toEqual(['AAAA000001', 'AAAA000002', 'AAAA000003', 'AAAA000004']);
    expect(stored[1]).toEqual({ kode_id: 'AAAA000002', model: 'Clio 5 Limited', year: 2018 });
  });

  it('rejects a file without the required columns; exit 1', async () => {
    const file = await writeCsv('columns.csv', ['kode_id,vin', 'AAAA000009,VF1S1CD16RB267735']);
    const io = recordingIo(db.env);
    expect(await runImportVehicles([file], io)).toBe(1);
    expect(io.stdout.join('\n')).toContain('line 1\t(none)\tmissing columns: brand, model, year');
    expect(io.stderr).toEqual([
      'Nothing was imported: line 1: missing columns: brand, model, year. Correct the file and run again.',
    ]);
  });

  it('resolves a relative path from where the command was typed', async () => {
    await writeCsv('relative.csv', [HEADER, 'AAAA000001,VF1S1CD16RB267735,Renault,Symbol,2024']);
    const io = recordingIo(db.env, db.dataDir);
    expect(await runImportVehicles(['relative.csv'], io)).toBe(0);
    expect(io.stdout.join('\n')).toMatch(/unchanged:\s+1\n/);
  });

  it('imports the 60 demo vehicles of the seed file', async () => {
    const io = recordingIo(db.env);
    expect(await runImportVehicles([path.join(ROOT, 'server/seed/vehicles.csv')], io)).toBe(0);
    expect(io.stdout.join('\n')).toMatch(/imported:\s+60\n/);
    const handle = await db.open();
    try {
      const [row] = await handle.db.select({ n: count() }).from(vehicles);
      expect(row?.n).toBe(64);
    } finally {
      await handle.close();
    }
  });

  describe('usage and IO errors: exit 2', () => {
    it.each([[[]], [['a.csv', 'b.csv']], [['--']], [['--dry-run']]])(
      'prints the usage for arguments %j',
      async (args) => {
        const io = recordingIo(db.env);
        expect(await runImportVehicles(args, io)).toBe(2);
        expect(io.stderr).toEqual(['Usage: npm run import:vehicles -- [--dry-run] [--skip-invalid] <file.csv>']);
      },
    );

    it('names an unknown option', async () => {
      const io = recordingIo(db.env);
      expect(await runImportVehicles(['--force', 'a.csv'], io)).toBe(2);
      expect(io.stderr[0]).toBe('Unknown option --force');
    });

    it('prints the usage and exits 0 for --help', async () => {
      const io = recordingIo(db.env);
      expect(await runImportVehicles(['--help'], io)).toBe(0);
      expect(io.stdout[0]).toContain('Usage');
    });

    it('names a file it cannot read', async () => {
      const io = recordingIo(db.env);
      const missing = path.join(db.dataDir, 'missing.csv');
      expect(await runImportVehicles([missing], io)).toBe(2);
      expect(io.stderr[0]).toContain(`Cannot read ${missing}`);
      expect(await runImportVehicles([db.dataDir], recordingIo(db.env))).toBe(2);
    });

    it('names a bad configuration value', async () => {
      const file = await writeCsv('config.csv', [HEADER]);
      const io = recordingIo({ ...db.env, DATABASE_URL: 'mysql://nope' });
      expect(await runImportVehicles([file], io)).toBe(2);
      expect(io.stderr[0]).toMatch(/^Configuration error: DATABASE_URL/);
    });

    it('reports a database it cannot reach, without its password', async () => {
      const file = await writeCsv('unreachable.csv', [HEADER]);
      const io = recordingIo({ ...db.env, DATABASE_URL: 'postgres://user:s3cret@127.0.0.1:1/none' });
      expect(await runImportVehicles([file], io)).toBe(2);
      expect(io.stderr[0]).toMatch(/^Import failed \(PostgreSQL at 127\.0\.0\.1:1\/none\)/);
      expect(io.stderr.join('\n')).not.toContain('s3cret');
    });
  });

  it('runs as npm run import:vehicles and exits with its code', async () => {
    const file = await writeCsv('smoke.csv', [
      HEADER,
      'AAAA000008,VF1S1CD16RB267735,Renault,Symbol,2024',
      'BAD,VF1S1CD16RB267735,Renault,Symbol,2024',
    ]);
    const run = promisify(execFile);
    const result = await run(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/cli/import-vehicles.ts', file], {
      cwd: ROOT,
      env: { ...process.env, ...db.env },
    }).then(
      (ok) => ({ code: 0, stdout: ok.stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/imported:\s+0\n/);
    expect(result.stdout).toContain('line 3\tBAD\tkode_id must be 10 letters or digits');
    expect(result.stdout).toContain('read 2, imported 0, updated 0, unchanged 0, rejected 1');
  }, 60_000);
});
