/**
 * The vehicle import at its edges (README, "Importing the vehicle registry"): a file that is not valid
 * CSV, a bad row among thousands, a database error mid-import, and fields that only look like text.
 * Whatever goes wrong, the default run writes nothing; --dry-run never writes; --skip-invalid writes
 * the valid rows. Every rejection names the file line its record starts on.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImportVehicles } from '../../../server/cli/import-vehicles';
import { vehicles } from '../../../server/db/schema';
import { createCliDatabase, recordingIo, type CliDatabase } from './cli-support';

const HEADER = 'kode_id,vin,brand,model,year';
const ROOT = path.resolve(import.meta.dirname, '../../..');

/** A valid row, unique for each n: a 10-character KODE ID and a 17-character VIN. */
function row(n: number, fields: Partial<Record<'brand' | 'model' | 'year', string>> = {}): string {
  const kodeId = `V${String(n).padStart(9, '0')}`;
  const vin = `VF1${String(n).padStart(14, '0')}`;
  return [
    kodeId,
    vin,
    fields.brand ?? 'Renault',
    fields.model ?? 'Symbol',
    fields.year ?? String(2000 + (n % 20)),
  ].join(',');
}

function rows(from: number, to: number): string[] {
  const lines: string[] = [];
  for (let n = from; n <= to; n++) lines.push(row(n));
  return lines;
}

describe('npm run import:vehicles at its edges', () => {
  let db: CliDatabase;
  beforeAll(async () => {
    db = await createCliDatabase();
    // A run that rejects the file never opens the database: the tests' own queries need its tables.
    const handle = await db.open();
    await handle.migrate();
    await handle.close();
  });
  afterAll(() => db.cleanup());

  const writeCsv = async (name: string, content: string[] | Buffer) => {
    const file = path.join(db.dataDir, name);
    await fs.writeFile(file, Array.isArray(content) ? `${content.join('\n')}\n` : content);
    return file;
  };
  const storedCount = async () => {
    const handle = await db.open();
    try {
      const [stored] = await handle.db.select({ n: count() }).from(vehicles);
      return stored?.n ?? 0;
    } finally {
      await handle.close();
    }
  };
  /** The stored model of a vehicle, or null. */
  const storedModel = async (kodeId: string) => {
    const handle = await db.open();
    try {
      const [stored] = await handle.db
        .select({ model: vehicles.model })
        .from(vehicles)
        .where(eq(vehicles.kode_id, kodeId));
      return stored?.model ?? null;
    } finally {
      await handle.close();
    }
  };
  const run = async (args: string[]) => {
    const io = recordingIo(db.env);
    const code = await runImportVehicles(args, io);
    return { code, stdout: io.stdout.join('\n'), stderr: io.stderr.join('\n') };
  };

  it('an unclosed quote on line 3 imports nothing and names line 3, even with --skip-invalid', async () => {
    const file = await writeCsv('unclosed.csv', [HEADER, row(1), `"${row(2)}`, ...rows(3, 1002)]);
    for (const args of [[file], ['--skip-invalid', file]]) {
      const result = await run(args);
      expect(await storedCount()).toBe(0);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/line 3\t\(none\)\t.*quote/i);
      expect(result.stdout).toContain('read 1, imported 0, updated 0, unchanged 0, rejected 1');
      expect(result.stderr).toMatch(/^Nothing was imported/);
    }
  });

  it('a NUL at row 30,000 of 50,000 imports nothing, in one short report; dry runs change nothing', async () => {
    // Numbered from 100,001 so that no other test's vehicle is among them.
    const lines = [HEADER, ...rows(100_001, 150_000)];
    lines[30_000] = row(130_000, { model: 'Sym\u0000bol' });
    const bad = await writeCsv('nul.csv', lines);
    // As the operator runs it: the command's own process, its own stdout and stderr.
    const result = await promisify(execFile)(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      ['server/cli/import-vehicles.ts', bad],
      { cwd: ROOT, env: { ...process.env, ...db.env } },
    ).then(
      (ok) => ({ code: 0, stdout: ok.stdout, stderr: ok.stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(await storedCount()).toBe(0);
    expect(result.stderr.length).toBeLessThan(300);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('read 50000, imported 0, updated 0, unchanged 0, rejected 1');
    expect(result.stdout).toContain('line 30001\tV000130000\tmodel holds a control character (U+0000)');
    expect(result.stderr).toMatch(/^Nothing was imported: 1 row was rejected.*\n$/);
    expect(result.stdout.length).toBeLessThan(2000);

    // The same file corrected: a dry run reports what a real run would do, and writes nothing.
    lines[30_000] = row(130_000);
    const good = await writeCsv('good.csv', lines);
    const dryRun = await run(['--dry-run', good]);
    expect(dryRun.stderr).toBe('');
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toContain('read 50000, imported 50000, updated 0, unchanged 0, rejected 0 (dry run');
    expect(await storedCount()).toBe(0);
  }, 120_000);

  it('a database error mid-import rolls every batch back and prints one line without the parameters', async () => {
    const handle = await db.open();
    try {
      // A rule the file's checks do not know: only the database refuses row 1,100.
      await handle.db.execute(sql`alter table vehicles add constraint test_no_zzz check (brand <> 'ZZZ')`);
    } finally {
      await handle.close();
    }
    try {
      const before = await storedCount();
      const lines = [HEADER, ...rows(1, 1200)];
      lines[1100] = row(1100, { brand: 'ZZZ' });
      const result = await run([await writeCsv('constraint.csv', lines)]);
      expect(await storedCount()).toBe(before);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^Import failed \(.*\): .*test_no_zzz/);
      expect(result.stderr.split('\n')).toHaveLength(1);
      expect(result.stderr.length).toBeLessThan(500);
      expect(result.stderr).not.toMatch(/params|V000001100/);
    } finally {
      const cleanup = await db.open();
      await cleanup.db.execute(sql`alter table vehicles drop constraint test_no_zzz`);
      await cleanup.close();
    }
  });

  it('--skip-invalid imports the valid rows and lists the first 20 rejections with their lines', async () => {
    const lines = [HEADER];
    for (let n = 1; n <= 30; n++) lines.push(n % 6 === 0 ? row(2000 + n) : row(2000 + n, { year: '1900' }));
    const file = await writeCsv('many-bad.csv', lines);
    const before = await storedCount();

    const strict = await run([file]);
    expect(await storedCount()).toBe(before);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('read 30, imported 0, updated 0, unchanged 0, rejected 25');
    expect(strict.stderr).toBe(
      'Nothing was imported: 25 rows were rejected. Correct them and run again, or add --skip-invalid to import the 5 valid rows.',
    );

    const skip = await run(['--skip-invalid', file]);
    expect(skip.code).toBe(1);
    expect(skip.stdout).toContain('read 30, imported 5, updated 0, unchanged 0, rejected 25');
    const listed = skip.stdout.split('\n').filter((line) => /^ {4}line \d+\t/.test(line));
    expect(listed).toHaveLength(20);
    expect(listed[0]).toMatch(
      /^ {4}line 2\tV000002001\tyear must be a whole number from 1950 to \d{4}, in plain digits$/,
    );
    expect(listed[19]).toMatch(/^ {4}line 24\t/);
    expect(skip.stdout).toContain('    … and 5 more');
    expect(await storedCount()).toBe(before + 5);
  });

  it('--dry-run reports new, updated and unchanged rows and changes nothing', async () => {
    const before = await storedCount();
    const file = await writeCsv('dry.csv', [HEADER, row(2006), row(2012, { model: 'Symbol Extreme' }), row(2900)]);
    const result = await run([file, '--dry-run']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'read 3, imported 1, updated 1, unchanged 1, rejected 0 (dry run: nothing was written)',
    );
    expect(await storedCount()).toBe(before);
    expect(await storedModel('V000002012')).toBe('Symbol');
    expect(await storedModel('V000002900')).toBeNull();
  });

  it('--dry-run on a database never migrated creates nothing: every valid row counts as new', async () => {
    const fresh = await createCliDatabase();
    try {
      const file = await writeCsv('fresh.csv', [HEADER, row(4001), row(4002)]);
      const io = recordingIo(fresh.env);
      expect(await runImportVehicles(['--dry-run', file], io)).toBe(0);
      expect(io.stdout.join('\n')).toContain(
        'read 2, imported 2, updated 0, unchanged 0, rejected 0 (dry run: nothing was written)',
      );
      if (process.env.TEST_DB === 'postgres') {
        const handle = await fresh.open();
        try {
          const result: unknown = await handle.db.execute(sql`select to_regclass('public.vehicles') as found`);
          expect((result as { rows: unknown[] }).rows).toEqual([{ found: null }]);
        } finally {
          await handle.close();
        }
      } else {
        await expect(fs.access(path.join(fresh.dataDir, 'pglite'))).rejects.toThrow();
      }
    } finally {
      await fresh.cleanup();
    }
  });

  it('names the file line of each rejected record, after quoted newlines and blank lines', async () => {
    const file = await writeCsv('lines.csv', [
      HEADER, // line 1
      `V000000201,VF100000000000201,Renault,"Clio`, // line 2: a record over two lines
      `5",2017`, // line 3
      '', // line 4
      row(202), // line 5
      '', // line 6
      '', // line 7
      'SHORT,VF100000000000203,Renault,Clio,2017', // line 8
    ]);
    const result = await run([file]);
    expect(result.stdout).toContain('line 8\tSHORT\tkode_id must be 10 letters or digits');
    expect(result.stdout).toContain(
      'line 2\tV000000201\tmodel holds a line break (inside quotes, at the end of line 2)',
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('read 3, imported 0, updated 0, unchanged 0, rejected 2');
  });

  it('says where a quoted line break is, in words: the line it ends, after those of earlier columns; a tab by name', async () => {
    const file = await writeCsv('breaks.csv', [
      'kode_id,vin,note,model,brand,year', // line 1: a column the import does not read
      `V000000211,VF100000000000211,"two`, // line 2: the note's line break, never checked
      `lines","Clio`, // line 3: the model's line break ends this line
      `5",Renault,2017`, // line 4
      `V000000212,VF100000000000212,,Clio\t5,Renault,2017`, // line 5
      `V000000213,VF100000000000213,,Clio,Renault,2017`, // line 6: valid
    ]);
    const result = await run([file]);
    expect(result.stdout).toContain(
      'line 2\tV000000211\tmodel holds a line break (inside quotes, at the end of line 3)',
    );
    expect(result.stdout).toContain('line 5\tV000000212\tmodel holds a tab');
    expect(result.stdout).toContain('read 3, imported 0, updated 0, unchanged 0, rejected 2');
    expect(result.code).toBe(1);
  });

  it('rejects control characters, over-long fields, years that are not plain digits, and invalid UTF-8', async () => {
    const lines = [
      HEADER, // line 1
      row(3001, { brand: 'Ren\u0001ault' }), // line 2
      row(3002, { model: '\u001B[31mSymbol' }), // line 3
      row(3003, { brand: 'Renault\u007F' }), // line 4
      row(3004, { model: 'Sym\u0085bol' }), // line 5
      row(3005, { brand: 'R'.repeat(200_000) }), // line 6
      row(3006, { model: 'M'.repeat(121) }), // line 7
      row(3007, { year: '2e3' }), // line 8
      row(3008, { year: '0x7E4' }), // line 9
      row(3009, { year: '2024.0' }), // line 10
      row(3010, { year: '+2024' }), // line 11
      row(3011, { brand: 'Citro\u00EBn' }), // line 12: written as Latin-1 below
      row(3012, { brand: 'Citroën', model: 'C3 Aircross', year: ' 2019 ' }), // line 13: valid
    ];
    const utf8 = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    // Line 12's ë as the single Latin-1 byte 0xEB, which is not UTF-8.
    const latin1 = Buffer.from(`${lines[11]}\n`, 'latin1');
    const before = Buffer.from(`${lines.slice(0, 11).join('\n')}\n`, 'utf8');
    const after = Buffer.from(`${lines.slice(12).join('\n')}\n`, 'utf8');
    expect(utf8.length).toBeGreaterThan(0);
    const file = await writeCsv('fields.csv', Buffer.concat([before, latin1, after]));

    const countBefore = await storedCount();
    const result = await run([file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('read 12, imported 0, updated 0, unchanged 0, rejected 11');
    const expected: Array<[number, string]> = [
      [2, 'brand holds a control character (U+0001)'],
      [3, 'model holds a control character (U+001B)'],
      [4, 'brand holds a control character (U+007F)'],
      [5, 'model holds a control character (U+0085)'],
      [6, 'brand is longer than 80 characters'],
      [7, 'model is longer than 120 characters'],
      [8, 'year must be a whole number from 1950 to'],
      [9, 'year must be a whole number from 1950 to'],
      [10, 'year must be a whole number from 1950 to'],
      [11, 'year must be a whole number from 1950 to'],
      [12, 'not valid UTF-8'],
    ];
    for (const [line, reason] of expected) {
      expect(result.stdout).toContain(`line ${line}\tV${String(line + 2999).padStart(9, '0')}\t${reason}`);
    }
    // The 200 KB brand is not echoed back.
    expect(result.stdout.length).toBeLessThan(3000);
    expect(await storedCount()).toBe(countBefore);

    const skip = await run(['--skip-invalid', file]);
    expect(skip.stdout).toContain('read 12, imported 1, updated 0, unchanged 0, rejected 11');
    expect(await storedModel('V000003012')).toBe('C3 Aircross');
  });
});
