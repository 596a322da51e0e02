/**
 * Odometer verdicts (docs/PRODUCT.md#odometer-plausibility), one set of rules for the server, which
 * stores a verdict with every repair, and the PWA, which warns before Insert. A vehicle's readings are
 * judged in the order they were recorded, never in the order they arrived: a reading recorded offline
 * on Monday and received on time (within LATE_REPORT_MS) after Wednesday's gets the same verdicts as if
 * it had arrived first. A late reading is judged against its neighbours too, but a conflict with a
 * reading received before it is its own: it never changes the verdict of a reading already received.
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
  /**
   * ISO 8601: when the server received it (its created_at; a correction's is that of the entry it stands
   * in for, docs/API.md#corrections); null for a reading not sent yet, or when the client does not know.
   */
  received_at: string | null;
  /** Replaced by a correction: it leaves the rules and is not judged. */
  superseded: boolean;
  /** Set on a correcting reading; 'odometer_replaced' starts a new series from it. */
  correction_reason: CorrectionReason | null;
}

export interface Judgement {
  /**
   * implausible: lower_than_previous or too_fast. plausible: compared with the reading before it in its
   * series (or, for a late reading, with the one after it received first) and neither. no_verdict:
   * nothing to compare with (the first reading of a series: the vehicle's first, or the one after an
   * odometer replacement) or superseded by a correction.
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

/**
 * Reported late (Car-Pass's rule): received more than LATE_REPORT_MS after it was recorded. A reading
 * not received yet, or whose arrival is unknown, is not late.
 */
export function isLateReport(reading: Reading): boolean {
  return (
    reading.received_at !== null && Date.parse(reading.received_at) - Date.parse(reading.recorded_at) > LATE_REPORT_MS
  );
}

/** What the rules read of a standing reading, worked out once per judgement. */
interface Facts {
  reading: Reading;
  /** Received more than LATE_REPORT_MS after it was recorded. */
  late: boolean;
  receivedMs: number | null;
  /** Its Algiers calendar day, for same_day_duplicate. */
  day: number;
  /** An 'odometer_replaced' correction starts a new series: nothing before it is compared with it. */
  startsSeries: boolean;
}

function factsOf(reading: Reading): Facts {
  return {
    reading,
    late: isLateReport(reading),
    receivedMs: reading.received_at === null ? null : Date.parse(reading.received_at),
    day: algiersDay(reading.recorded_at),
    startsSeries: reading.correction_reason === 'odometer_replaced',
  };
}

/** The readings a reading is compared with in its series, among those it is judged with. */
interface Neighbours {
  previous: Reading | null;
  /** Only looked for when the reading is late. */
  next: Reading | null;
  /** An earlier reading of its series has the same Algiers day and odometer. */
  duplicate: boolean;
}

/**
 * The neighbours of `facts[index]` (`facts` in recorded order). A reading is judged among the standing
 * readings less the late ones that reached the server after it: a late arrival cannot change the verdict
 * of a reading received before it, which keeps the one it had. The walks skip those left out and stop at
 * the edge of the series (and, for duplicates, of the day), so a vehicle's readings are judged in about
 * linear time.
 */
function neighboursOf(facts: readonly Facts[], index: number): Neighbours {
  const self = facts[index] as Facts;
  const leftOut = (other: Facts) =>
    other.late && self.receivedMs !== null && other.receivedMs !== null && other.receivedMs > self.receivedMs;
  let previous: Reading | null = null;
  let duplicate = false;
  for (let at = index - 1; at >= 0 && !self.startsSeries; at--) {
    const other = facts[at] as Facts;
    if (leftOut(other)) continue;
    previous ??= other.reading;
    if (other.day !== self.day) break;
    if (other.reading.odometer === self.reading.odometer) {
      duplicate = true;
      break;
    }
    if (other.startsSeries) break;
  }
  let next: Reading | null = null;
  for (let at = index + 1; at < facts.length && self.late; at++) {
    const other = facts[at] as Facts;
    if (leftOut(other)) continue;
    if (!other.startsSeries) next = other.reading;
    break;
  }
  return { previous, next, duplicate };
}

const elapsedMs = (earlier: Reading, later: Reading) => Date.parse(later.recorded_at) - Date.parse(earlier.recorded_at);

/**
 * What the pair (late reading, the next one recorded, received before it) says of the late one: when the
 * next one is a dip after it, the late one shows more km than the vehicle can have had (too_fast); when
 * the next one is too far above it, the late one is lower than what was already received
 * (lower_than_previous). These are the reasons a registry judging by arrival would give it.
 */
function conflictWithNext(late: Reading, next: Reading): ReadingReason[] {
  return compareWithPrevious(late.odometer, next.odometer, elapsedMs(late, next)).map((reason) =>
    reason === 'lower_than_previous' ? 'too_fast' : 'lower_than_previous',
  );
}

function judgeAgainstPrevious(self: Facts, { previous, duplicate }: Neighbours): Judgement {
  const found = new Set<ReadingReason>(
    previous ? compareWithPrevious(previous.odometer, self.reading.odometer, elapsedMs(previous, self.reading)) : [],
  );
  if (duplicate) found.add('same_day_duplicate');
  if (self.late) found.add('late_report');
  const reasons = READING_REASONS.filter((reason) => found.has(reason));
  return { verdict: verdictOf(reasons, previous !== null), reasons };
}

/** `a` reached the server strictly before `b`; false when either arrival is unknown or they tie. */
function receivedBefore(a: Reading, b: Reading): boolean {
  return a.received_at !== null && b.received_at !== null && Date.parse(a.received_at) < Date.parse(b.received_at);
}

/**
 * Judges one vehicle's readings, whatever order they come in:
 * - each against the one recorded just before it in its series, leaving out the late readings that
 *   reached the server after it (neighboursOf);
 * - a late reading also against the one recorded just after it, when that one reached the server first:
 *   a conflict between them is the late one's (conflictWithNext), unless that reading is implausible on
 *   its own account already; the earlier-received one keeps its verdict.
 * same_day_duplicate marks a reading when an earlier one of its series and of the same Algiers day has
 * the same odometer (two repairs of one visit, or one entry sent twice); it informs, as late_report does.
 * Returns a judgement per reading id.
 */
export function judgeReadings(readings: readonly Reading[]): Map<string, Judgement> {
  const judgements = new Map<string, Judgement>();
  const facts = readings
    .filter((reading) => !reading.superseded)
    .sort(byRecordedOrder)
    .map(factsOf);
  const neighbours = facts.map((_, index) => neighboursOf(facts, index));
  facts.forEach((self, index) =>
    judgements.set(self.reading.id, judgeAgainstPrevious(self, neighbours[index] as Neighbours)),
  );
  // Late readings in the order they arrived, so the next reading's own verdict is final when consulted.
  const late = facts
    .map((self, index) => ({ self, next: neighbours[index]?.next ?? null }))
    .filter(({ self }) => self.late)
    .sort((a, b) => (a.self.receivedMs ?? 0) - (b.self.receivedMs ?? 0));
  for (const { self, next } of late) {
    if (!next || !receivedBefore(next, self.reading)) continue;
    if (judgements.get(next.id)?.verdict === 'implausible') continue;
    const own = judgements.get(self.reading.id)?.reasons ?? [];
    const found = new Set<ReadingReason>([...own, ...conflictWithNext(self.reading, next)]);
    const reasons = READING_REASONS.filter((reason) => found.has(reason));
    judgements.set(self.reading.id, { verdict: verdictOf(reasons, true), reasons });
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
  if (candidate.superseded) return { judgement, previous: null };
  const facts = readings
    .filter((reading) => !reading.superseded)
    .sort(byRecordedOrder)
    .map(factsOf);
  return {
    judgement,
    previous: neighboursOf(
      facts,
      facts.findIndex((self) => self.reading === candidate),
    ).previous,
  };
}
