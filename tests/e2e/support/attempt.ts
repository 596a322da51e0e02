/**
 * What a retried test needs to start from the state its first attempt started from. Under CI a failed
 * test runs once more (vitest's `retry`), in the same file, against the same portal and database: the
 * readings its first attempt left on a vehicle are still there (a vehicle's readings are shared by every
 * partner, so a fresh account does not help), and so are the repairs of an account registered once per
 * file.
 */
import { serverRepairs, type Account, type StoredRepair } from './offline';

/** The attempt a test is on: 0 the first, 1 its retry. Pass the test context's `task`. */
export function attemptOf(task: { result?: { retryCount?: number } }): number {
  return task.result?.retryCount ?? 0;
}

/** `choices[attempt]`: one value per attempt, for instance a vehicle no earlier attempt wrote to. */
export function perAttempt<T>(task: { result?: { retryCount?: number } }, choices: readonly [T, ...T[]]): T {
  const attempt = attemptOf(task);
  const choice = choices[attempt];
  if (choice === undefined) throw new Error(`attempt ${attempt}: only ${choices.length} choices, one per attempt`);
  return choice;
}

export interface DemoVehicle {
  readonly kodeId: string;
  readonly vin: string;
}

/**
 * Demo vehicles (server/seed/vehicles.csv) that no end-to-end test names otherwise, for a retry's
 * readings. Each test file has its own database: only the tests of one file need different ones.
 */
export const SPARE_VEHICLES = [
  { kodeId: 'T9HZHAX5QQ', vin: 'WVWEFK936RP837840' }, // Volkswagen Golf 7
  { kodeId: '7CBHHHRYDN', vin: 'VSSPX7T57BK423061' }, // Seat Ibiza
  { kodeId: '7BQA4JJ2V3', vin: 'AHTUB8CM1KS177594' }, // Toyota Hilux
  { kodeId: 'MP97RDXATY', vin: 'KL1WVKLJ7RP236748' }, // Chevrolet Spark
] as const satisfies readonly DemoVehicle[];

/**
 * Call at a test's start: `earlier` is what the server held for the account then (a retry finds its
 * first attempt's repairs there), `added()` the repairs stored since.
 */
export async function serverRepairsFromNow(
  baseUrl: string,
  account: Account,
): Promise<{ earlier: StoredRepair[]; added: () => Promise<StoredRepair[]> }> {
  const earlier = await serverRepairs(baseUrl, account);
  const ids = new Set(earlier.map((repair) => repair.id));
  return {
    earlier,
    added: async () => (await serverRepairs(baseUrl, account)).filter((repair) => !ids.has(repair.id)),
  };
}
