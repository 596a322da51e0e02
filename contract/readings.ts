/**
 * Odometer verdicts (docs/PRODUCT.md#odometer-plausibility), one set of rules for the server, which
 * stores a verdict with every repair, and the PWA, which warns before Insert. A vehicle's readings are
 * judged in the order they were recorded, never in the order they arrived: a reading recorded offline
 * on Monday and received after Wednesday's gets the same verdicts as if it had arrived on time.
 */
import {
  ALGIERS_UTC_OFFSET_MS,
  LATE_REPORT_MS,
  ODOMETER_DIP_TOLERANCE_KM,
  ODOMETER_MAX_KM_PER_DAY,
  ODOMETER_MAX_KM_PER_MONTH,
  ODOMETER_MAX_KM_PER_QUARTER,
  ODOMETER_MAX_KM_PER_WEEK,
  ODOMETER_MAX_KM_PER_YEAR,
} from './rules';

export const READING_VERDICTS = ['plausible', 'implausible', 'no_verdict'] as const;
export type ReadingVerdictCode = (typeof READING_VERDICTS)[number];

export const READING_REASONS = ['lower_than_previous', 'too_fast', 'same_day_duplicate', 'late_report'] as const;
export type ReadingReason = (typeof READING_REASONS)[number];

/** Why a partner corrects one of its repairs (docs/API.md#corrections). */
export const CORRECTION_REASONS = ['typo', 'wrong_vehicle', 'miles_as_km', 'odometer_replaced'] as const;
export type CorrectionReason = (typeof CORRECTION_REASONS)[number];

/** The reasons that make a reading implausible; the others only inform. */
const DISQUALIFYING: readonly ReadingReason[] = ['lower_than_previous', 'too_fast'];

export interface Reading {
  /** Breaks ties between readings recorded at the same moment, so the order never depends on arrival. */
  id: string;
  odometer: number;
  /** ISO 8601: when the mechanic pressed Insert. */
  recorded_at: string;
  /** ISO 8601: when the server stored it (its created_at); null for a reading not sent yet. */
  received_at: string | null;
  /** Replaced by a correction: it leaves the rules and is not judged. */
  superseded: boolean;
  /** Set on a correcting reading; 'odometer_replaced' starts a new series from it. */
  correction_reason: CorrectionReason | null;
}

export interface Judgement {
  /**
   * implausible: lower_than_previous or too_fast. plausible: compared with the reading before it in its
   * series and neither. no_verdict: nothing to compare with (the first reading of a series: the
   * vehicle's first, or the one after an odometer replacement) or superseded by a correction.
   */
  verdict: ReadingVerdictCode;
  /** In READING_REASONS order; same_day_duplicate and late_report may come with any verdict. */
  reasons: ReadingReason[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Each window with the most km plausible within it (contract/rules.ts gives the sources). */
const BOUNDS: readonly { windowMs: number; km: number }[] = [
  { windowMs: DAY_MS, km: ODOMETER_MAX_KM_PER_DAY },
  { windowMs: 7 * DAY_MS, km: ODOMETER_MAX_KM_PER_WEEK },
  { windowMs: 30 * DAY_MS, km: ODOMETER_MAX_KM_PER_MONTH },
  { windowMs: 91 * DAY_MS, km: ODOMETER_MAX_KM_PER_QUARTER },
  { windowMs: 365 * DAY_MS, km: ODOMETER_MAX_KM_PER_YEAR },
];

/**
 * The most km plausible in `elapsedMs`: each bound prorated over the time elapsed, never less than one
 * window's worth (a reading an hour after another may still be a day's drive after it), and the
 * smallest of them. Less than a day, even no time at all, counts as one day.
 */
export function maxPlausibleKm(elapsedMs: number): number {
  return Math.min(...BOUNDS.map(({ windowMs, km }) => Math.max(1, elapsedMs / windowMs) * km));
}

/**
 * What a reading says next to the one recorded before it in its series. `elapsedMs` null: the earlier
 * reading's date is unknown (the PWA's lookup of an old server), so only a dip can be judged.
 */
export function compareWithPrevious(
  previousOdometer: number,
  odometer: number,
  elapsedMs: number | null,
): ReadingReason[] {
  if (previousOdometer - odometer >= ODOMETER_DIP_TOLERANCE_KM) return ['lower_than_previous'];
  if (elapsedMs !== null && odometer - previousOdometer > maxPlausibleKm(elapsedMs)) return ['too_fast'];
  return [];
}

/** The verdict that a set of reasons gives; `compared` is false for the first reading of a series. */
export function verdictOf(reasons: readonly ReadingReason[], compared: boolean): ReadingVerdictCode {
  if (reasons.some((reason) => DISQUALIFYING.includes(reason))) return 'implausible';
  return compared ? 'plausible' : 'no_verdict';
}

/** Recorded order: recorded_at, then id, so two readings of one moment keep one order wherever they came from. */
export function byRecordedOrder(a: Reading, b: Reading): number {
  const at = Date.parse(a.recorded_at) - Date.parse(b.recorded_at);
  if (at !== 0) return at;
  if (a.id === b.id) return 0;
  return a.id < b.id ? -1 : 1;
}

/** The calendar day in Algiers of an ISO moment, as days since the epoch. */
function algiersDay(iso: string): number {
  return Math.floor((Date.parse(iso) + ALGIERS_UTC_OFFSET_MS) / DAY_MS);
}

function isLate(reading: Reading): boolean {
  return (
    reading.received_at !== null && Date.parse(reading.received_at) - Date.parse(reading.recorded_at) > LATE_REPORT_MS
  );
}

/** Splits readings in recorded order into series: an 'odometer_replaced' correction starts a new one. */
function seriesOf(ordered: readonly Reading[]): Reading[][] {
  const series: Reading[][] = [];
  for (const reading of ordered) {
    const current = series.at(-1);
    if (!current || reading.correction_reason === 'odometer_replaced') series.push([reading]);
    else current.push(reading);
  }
  return series;
}

function judgeInSeries(reading: Reading, previous: Reading | undefined, duplicate: boolean): Judgement {
  const found = new Set<ReadingReason>(
    previous
      ? compareWithPrevious(
          previous.odometer,
          reading.odometer,
          Date.parse(reading.recorded_at) - Date.parse(previous.recorded_at),
        )
      : [],
  );
  if (duplicate) found.add('same_day_duplicate');
  if (isLate(reading)) found.add('late_report');
  const reasons = READING_REASONS.filter((reason) => found.has(reason));
  return { verdict: verdictOf(reasons, previous !== undefined), reasons };
}

/**
 * Judges one vehicle's readings, whatever order they come in: each against the one recorded just before
 * it in its series. same_day_duplicate marks a reading when an earlier one of the same Algiers day has the
 * same odometer (two repairs of one visit, or one entry sent twice); it informs, as late_report does.
 * Returns a judgement per reading id.
 */
export function judgeReadings(readings: readonly Reading[]): Map<string, Judgement> {
  const judgements = new Map<string, Judgement>();
  const live = readings.filter((reading) => !reading.superseded).sort(byRecordedOrder);
  for (const series of seriesOf(live)) {
    const seen = new Set<string>();
    series.forEach((reading, index) => {
      const key = `${algiersDay(reading.recorded_at)}:${reading.odometer}`;
      judgements.set(reading.id, judgeInSeries(reading, series[index - 1], seen.has(key)));
      seen.add(key);
    });
  }
  for (const reading of readings) {
    if (reading.superseded) judgements.set(reading.id, { verdict: 'no_verdict', reasons: [] });
  }
  return judgements;
}

/** What the rules say of one more reading, next to the known ones, and the reading it was compared with. */
export interface CandidateJudgement {
  judgement: Judgement;
  /** The reading recorded just before it in its series; null when it starts one. */
  previous: Reading | null;
}

/**
 * Judges a reading not stored yet as if it were stored with the known ones (the PWA's question before
 * Insert): the same rules, so the warning and the stored verdict never disagree on the same readings.
 */
export function judgeCandidate(known: readonly Reading[], candidate: Reading): CandidateJudgement {
  const readings = [...known.filter((reading) => reading.id !== candidate.id), candidate];
  const judgement = judgeReadings(readings).get(candidate.id) ?? { verdict: 'no_verdict', reasons: [] };
  const live = readings.filter((reading) => !reading.superseded).sort(byRecordedOrder);
  const index = live.findIndex((reading) => reading.id === candidate.id);
  const startsSeries = index <= 0 || candidate.correction_reason === 'odometer_replaced';
  return { judgement, previous: startsSeries ? null : (live[index - 1] ?? null) };
}
