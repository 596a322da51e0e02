/** Command line of `npm run bench`: `--quick` for a smoke run with small counts, `--only a,b` for some benchmarks. */

export const BENCHMARKS = [
  'first-load',
  'startup',
  'photo',
  'outbox-drain',
  'history',
  'api-load',
  'photo-load',
  'precache',
  'update-download',
  'lighthouse',
] as const;
export type BenchmarkName = (typeof BENCHMARKS)[number];

export interface BenchOptions {
  quick: boolean;
  only: ReadonlySet<BenchmarkName>;
  /** Where the JSON and Markdown reports go (bench/results by default). */
  outDir: string | null;
  /** The commit whose timed figures (start-up, History, Lighthouse) are measured beside this one's (HEAD~1 by default); null: none. */
  baseline: string | null;
}

export function parseArgs(argv: readonly string[]): BenchOptions {
  let quick = false;
  let only: Set<BenchmarkName> = new Set(BENCHMARKS);
  let outDir: string | null = null;
  let baseline: string | null = 'HEAD~1';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') quick = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (argv[++i] ?? '');
      const names = value.split(',').map((name) => name.trim());
      const unknown = names.filter((name) => !(BENCHMARKS as readonly string[]).includes(name));
      if (unknown.length > 0)
        throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.join(', ')}`);
      only = new Set(names as BenchmarkName[]);
    } else if (arg === '--out' || arg.startsWith('--out=')) {
      outDir = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (argv[++i] ?? null);
    } else if (arg === '--baseline' || arg.startsWith('--baseline=')) {
      baseline = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (argv[++i] ?? null);
    } else if (arg === '--no-baseline') {
      baseline = null;
    } else if (arg === '--help' || arg === '-h') {
      throw new Error(
        `usage: npm run bench -- [--quick] [--only ${BENCHMARKS.join(',')}] [--out dir] [--baseline rev | --no-baseline]\n` +
          '  --quick     small counts and one or two runs each: a smoke run, not figures to publish\n' +
          '  --baseline  the commit measured beside this one for start-up, History and Lighthouse (default HEAD~1)',
      );
    } else throw new Error(`unknown argument ${arg} (try --help)`);
  }
  return { quick, only, outDir, baseline };
}
