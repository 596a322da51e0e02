/** Small statistics for repeated runs: every figure in the report is the median of its runs. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function round(value: number, digits = 0): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** A measured figure: the median and every run it came from, so the report shows the spread. */
export interface Figure {
  median: number;
  runs: number[];
  unit: string;
}

export function figure(runs: readonly number[], unit: string, digits = 0): Figure {
  return { median: round(median(runs), digits), runs: runs.map((value) => round(value, digits)), unit };
}

/** The figure of one measure taken from each run, e.g. figureOf(runs, (run) => run.drainMs, 'ms'). */
export function figureOf<T>(runs: readonly T[], measure: (run: T) => number, unit: string, digits = 0): Figure {
  return figure(runs.map(measure), unit, digits);
}

export function kb(bytes: number): number {
  return round(bytes / 1024, 1);
}

/** Runs `body` n times, one after the other, and returns what each run gave. */
export async function repeat<T>(times: number, body: (run: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let run = 0; run < times; run++) results.push(await body(run));
  return results;
}
