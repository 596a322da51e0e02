/**
 * Odometer plausibility (docs/PRODUCT.md#odometer-plausibility), the same rule the server applies when it marks a
 * stored repair odometer_anomaly: lower than the last known reading, or more than
 * ODOMETER_MAX_KM_PER_DAY per day since it (counting at least one day).
 */
import { ODOMETER_MAX_KM_PER_DAY } from '../../contract';

export interface KnownReading {
  odometer: number;
  /** ISO 8601, or null when the date is not known. */
  at: string | null;
}

export type ReadingVerdict =
  { kind: 'ok'; previous: KnownReading | null } | { kind: 'lower' | 'too_high'; previous: KnownReading };

const DAY_MS = 24 * 60 * 60 * 1000;

export function judgeReading(previous: KnownReading | null, odometer: number, now: number): ReadingVerdict {
  if (!previous) return { kind: 'ok', previous };
  if (odometer < previous.odometer) return { kind: 'lower', previous };
  if (previous.at !== null) {
    const since = Date.parse(previous.at);
    if (!Number.isNaN(since)) {
      const days = Math.max(1, (now - since) / DAY_MS);
      if (odometer - previous.odometer > ODOMETER_MAX_KM_PER_DAY * days) return { kind: 'too_high', previous };
    }
  }
  return { kind: 'ok', previous };
}

/** The most recent of several readings; a reading without a date counts as the oldest. */
export function latestReading(readings: readonly (KnownReading | null | undefined)[]): KnownReading | null {
  let latest: KnownReading | null = null;
  for (const reading of readings) {
    if (!reading) continue;
    if (!latest) {
      latest = reading;
      continue;
    }
    const a = latest.at === null ? Number.NEGATIVE_INFINITY : Date.parse(latest.at);
    const b = reading.at === null ? Number.NEGATIVE_INFINITY : Date.parse(reading.at);
    if (b > a) latest = reading;
  }
  return latest;
}
