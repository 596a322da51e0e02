/**
 * How much longer this host needs than the one the suite's time budgets were set on, so that every
 * budget (a test's or hook's timeout, a poll's, a walk's) fits the work rather than one machine.
 *
 * The budgets were set, and hold with no retried test, on a 2-core machine of the project's kind
 * whose probe below takes REFERENCE_PROBE_MS. A host with fewer cores, or a slower core, gets
 * proportionally more time: pinned to one core (`taskset -c 0`) the same suite runs about twice as
 * long, and its budgets double. A faster host keeps the budgets as they are: a failure there still
 * shows as soon as before.
 *
 * The config measures once, when the run starts, and hands the factor to the test processes through
 * the environment (SLOWNESS_ENV), so every process of a run scales alike and the run prints it.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';

export const SLOWNESS_ENV = 'TEST_HOST_SLOWNESS';

/**
 * The probe's best time on the reference machine: 12.5 to 13 ms, idle, on the 2-core host of December
 * 2026 whose two-core runs pass with these budgets (about as fast as the one the decision records
 * call machine C, the slowest seen).
 */
const REFERENCE_PROBE_MS = 13;
/** The cores the budgets were set with. */
const REFERENCE_CORES = 2;
/** Beyond this, a host is too slow to be worth waiting for: its failures say so. */
const MAX_SLOWNESS = 6;

/**
 * A small piece of the suite's own kind of work (objects built, serialised, parsed and sorted on one
 * thread), timed at its best of several runs so that a moment of load does not count.
 */
export function probeMilliseconds(runs = 15): number {
  let best = Infinity;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: `KODE${i}`, odometer: (i * 7919) % 300_000 }));
    const parsed = JSON.parse(JSON.stringify(rows)) as typeof rows;
    parsed.sort((a, b) => a.odometer - b.odometer || a.id.localeCompare(b.id));
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

export interface HostSpeed {
  probeMs: number;
  cores: number;
  /** The factor every budget is multiplied by (1 or more). */
  slowness: number;
}

/** The factor for a host whose probe took `probeMs` and that lets the run use `cores` cores. */
export function slownessOf(probeMs: number, cores: number): number {
  const perCore = probeMs / REFERENCE_PROBE_MS;
  const fewerCores = REFERENCE_CORES / Math.max(1, Math.min(cores, REFERENCE_CORES));
  return Math.round(Math.min(MAX_SLOWNESS, Math.max(1, perCore) * fewerCores) * 100) / 100;
}

export function measureHostSpeed(): HostSpeed {
  const probeMs = probeMilliseconds();
  const cores = os.availableParallelism(); // what this process may use: one under `taskset -c 0`
  return { probeMs: Math.round(probeMs * 10) / 10, cores, slowness: slownessOf(probeMs, cores) };
}

/** The factor the run measured (1 in a process started outside a test run). */
export function hostSlowness(): number {
  const value = Number(process.env[SLOWNESS_ENV]);
  return Number.isFinite(value) && value >= 1 ? value : 1;
}

/** A budget set on the reference machine, as this host needs it. */
export function scaled(milliseconds: number): number {
  return Math.round(milliseconds * hostSlowness());
}
