import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CORRECTION_REASONS,
  judgeNewReading,
  judgeReadings,
  LATE_REPORT_MS,
  maxPlausibleKm,
  ODOMETER_DIP_TOLERANCE_KM,
  ODOMETER_MAX_KM_PER_DAY,
  ODOMETER_MAX_KM_PER_MONTH,
  ODOMETER_MAX_KM_PER_QUARTER,
  ODOMETER_MAX_KM_PER_WEEK,
  ODOMETER_MAX_KM_PER_YEAR,
  type Reading,
} from '../../contract';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2025-01-06T08:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

function reading(id: string, odometer: number, recordedMs: number, extra: Partial<Reading> = {}): Reading {
  return {
    id,
    odometer,
    recorded_at: at(recordedMs),
    received_at: at(recordedMs),
    superseded: false,
    correction_reason: null,
    ...extra,
  };
}

/** The judgements as a plain object, so two runs compare with toEqual. */
const judged = (readings: readonly Reading[]) => Object.fromEntries(judgeReadings(readings));

/** The verdict of `b` after `a`, `elapsed` later. */
function pair(aKm: number, bKm: number, elapsed: number) {
  return judgeReadings([reading('a', aKm, 0), reading('b', bKm, elapsed)]).get('b');
}

describe('judgeReadings (docs/PRODUCT.md#odometer-plausibility)', () => {
  const arbitraryReading = fc.record({
    id: fc.uuid(),
    odometer: fc.integer({ min: 1, max: 400_000 }),
    // Few distinct moments and readings, so ties, same-day duplicates and dips all happen often.
    recordedMs: fc.integer({ min: 0, max: 400 }).map((n) => n * 6 * 60 * 60 * 1000),
    lateMs: fc.constantFrom(0, 5 * DAY, 5 * DAY + 1, 30 * DAY),
    superseded: fc.boolean({ freq: 5 }),
    correction_reason: fc.option(fc.constantFrom(...CORRECTION_REASONS), { freq: 4 }),
  });
  const arbitraryReadings = fc.uniqueArray(arbitraryReading, { selector: (r) => r.id, maxLength: 25 }).map((rows) =>
    rows.map(({ recordedMs, lateMs, ...rest }) => ({
      ...rest,
      recorded_at: at(recordedMs),
      received_at: at(recordedMs + lateMs),
    })),
  );

  it('gives the same verdicts whatever order the readings are listed in (their arrival is received_at)', () => {
    fc.assert(
      fc.property(arbitraryReadings, fc.infiniteStream(fc.nat()), (readings, randoms) => {
        const shuffled = [...readings];
        // Fisher–Yates with fast-check's numbers, so a failure shrinks and replays.
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = randoms.next().value % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j] as Reading, shuffled[i] as Reading];
        }
        expect(judged(shuffled)).toEqual(judged(readings));
        expect(judgeReadings(readings).size).toBe(readings.length);
      }),
      { numRuns: 300 },
    );
  });

  /** Readings received on time, each after a lag of its own from 0 to LATE_REPORT_MS, so in any order. */
  const onTimeReadings = fc
    .uniqueArray(
      fc.record({
        id: fc.uuid(),
        odometer: fc.integer({ min: 1, max: 400_000 }),
        recordedMs: fc.integer({ min: 0, max: 400 }).map((n) => n * 6 * 60 * 60 * 1000),
        lagMs: fc.integer({ min: 0, max: LATE_REPORT_MS }),
        superseded: fc.boolean({ freq: 5 }),
        correction_reason: fc.option(fc.constantFrom(...CORRECTION_REASONS), { freq: 4 }),
      }),
      { selector: (r) => r.id, maxLength: 25 },
    )
    .map((rows) =>
      rows.map(({ recordedMs, lagMs, ...rest }) => ({
        ...rest,
        recorded_at: at(recordedMs),
        received_at: at(recordedMs + lagMs),
      })),
    );

  it('gives readings received on time the same verdicts whatever order they arrived in', () => {
    fc.assert(
      fc.property(onTimeReadings, (readings) => {
        // As if each had arrived the moment it was recorded, in recorded order.
        const inRecordedOrder = readings.map((reading) => ({ ...reading, received_at: reading.recorded_at }));
        expect(judged(readings)).toEqual(judged(inRecordedOrder));
      }),
      { numRuns: 300 },
    );
  });

  it('lets a late arrival bear its conflicts and change no verdict of the readings received before it', () => {
    const lateReading = fc.record({
      odometer: fc.integer({ min: 1, max: 400_000 }),
      recordedMs: fc.integer({ min: 0, max: 400 }).map((n) => n * 6 * 60 * 60 * 1000),
      correction_reason: fc.option(fc.constantFrom(...CORRECTION_REASONS), { freq: 4 }),
    });
    fc.assert(
      fc.property(onTimeReadings, lateReading, (received, { odometer, recordedMs, correction_reason }) => {
        const lastArrival = Math.max(0, ...received.map((reading) => Date.parse(reading.received_at ?? '') - T0));
        const late: Reading = {
          id: 'late',
          odometer,
          recorded_at: at(recordedMs),
          received_at: at(Math.max(lastArrival + 1, recordedMs + LATE_REPORT_MS + 1)),
          superseded: false,
          correction_reason,
        };
        const before = judged(received);
        const after = judged([...received, late]);
        // Every reading received before it keeps its verdict and its reasons.
        expect({ ...after, late: undefined }).toEqual({ ...before, late: undefined });
        expect(after.late?.reasons).toContain('late_report');
        // Its conflicts are the ones the same reading on time would have had, with its previous reading or
        // with the next one (which would have turned implausible because of it): they are its own.
        const onTime = judged([...received, { ...late, received_at: late.recorded_at }]);
        const conflicts =
          onTime.late?.verdict === 'implausible' ||
          Object.keys(before).some(
            (id) => onTime[id]?.verdict === 'implausible' && before[id]?.verdict !== 'implausible',
          );
        expect(after.late?.verdict === 'implausible').toBe(conflicts);
      }),
      { numRuns: 500 },
    );
  });

  it('re-judges a reading when one recorded before it arrives after it, on time', () => {
    const wednesday = reading('wed', 100_050, 2 * DAY);
    const friday = reading('fri', 100_100, 4 * DAY);
    expect(judged([wednesday, friday]).fri).toEqual({ verdict: 'plausible', reasons: [] });
    // Monday's reading arrives on Friday, within 5 days, and higher: Wednesday's is now a dip.
    const monday = reading('mon', 101_000, 0, { received_at: at(4 * DAY) });
    expect(judged([wednesday, friday, monday])).toEqual({
      mon: { verdict: 'no_verdict', reasons: [] },
      wed: { verdict: 'implausible', reasons: ['lower_than_previous'] },
      fri: { verdict: 'plausible', reasons: [] },
    });
  });

  it('lets a late reading bear its conflict with the reading received before it, which keeps its verdict', () => {
    const wednesday = reading('wed', 100_050, 2 * DAY);
    const friday = reading('fri', 100_100, 4 * DAY);
    // The same Monday reading a week late: it bears the dip, and is judged as a registry judging by arrival would.
    const monday = reading('mon', 101_000, 0, { received_at: at(7 * DAY) });
    expect(judged([wednesday, friday, monday])).toEqual({
      mon: { verdict: 'implausible', reasons: ['too_fast', 'late_report'] },
      wed: { verdict: 'no_verdict', reasons: [] },
      fri: { verdict: 'plausible', reasons: [] },
    });
    // Late and far lower than the reading after it (a rollback backdated): lower_than_previous.
    const rollback = reading('mon', 80_000, 0, { received_at: at(7 * DAY) });
    expect(judged([wednesday, friday, rollback]).mon).toEqual({
      verdict: 'implausible',
      reasons: ['lower_than_previous', 'late_report'],
    });
    // Late and consistent with it: judged against it, so plausible, and late.
    const honest = reading('mon', 99_000, 0, { received_at: at(7 * DAY) });
    expect(judged([wednesday, friday, honest])).toEqual({
      mon: { verdict: 'plausible', reasons: ['late_report'] },
      wed: { verdict: 'no_verdict', reasons: [] },
      fri: { verdict: 'plausible', reasons: [] },
    });
  });

  it('says no_verdict for a first reading, and for a superseded one, which leaves the rules', () => {
    expect(judged([reading('a', 50_000, 0)])).toEqual({ a: { verdict: 'no_verdict', reasons: [] } });
    const wrong = reading('wrong', 5_000, DAY, { superseded: true });
    expect(judged([reading('a', 50_000, 0), wrong, reading('b', 50_500, 2 * DAY)])).toEqual({
      a: { verdict: 'no_verdict', reasons: [] },
      wrong: { verdict: 'no_verdict', reasons: [] },
      b: { verdict: 'plausible', reasons: [] },
    });
  });

  it('tolerates a dip under 100 km and calls one of 100 km or more lower_than_previous', () => {
    expect(ODOMETER_DIP_TOLERANCE_KM).toBe(100);
    expect(pair(50_000, 49_901, DAY)).toEqual({ verdict: 'plausible', reasons: [] });
    expect(pair(50_000, 49_900, DAY)).toEqual({ verdict: 'implausible', reasons: ['lower_than_previous'] });
  });

  it('restarts the series at an odometer_replaced correction', () => {
    const before = reading('before', 250_000, 0);
    const replaced = reading('new', 12, DAY, { correction_reason: 'odometer_replaced' });
    const after = reading('after', 400, 2 * DAY);
    expect(judged([before, replaced, after])).toEqual({
      before: { verdict: 'no_verdict', reasons: [] },
      new: { verdict: 'no_verdict', reasons: [] },
      after: { verdict: 'plausible', reasons: [] },
    });
    // Any other correction reason keeps the series: the same reading is then a dip.
    const typo = { ...replaced, correction_reason: 'typo' as const };
    expect(judged([before, typo, after]).new).toEqual({ verdict: 'implausible', reasons: ['lower_than_previous'] });
  });

  it('marks the second same-day reading with the same odometer, and a report over 5 days late, without making them implausible', () => {
    const first = reading('a', 80_000, 0);
    const again = reading('b', 80_000, 3 * 60 * 60 * 1000);
    expect(judged([again, first])).toEqual({
      a: { verdict: 'no_verdict', reasons: [] },
      b: { verdict: 'plausible', reasons: ['same_day_duplicate'] },
    });
    // The next Algiers day (midnight there is 23:00 UTC) is not the same day.
    const nextDay = reading('c', 80_000, Date.parse('2025-01-06T23:00:00.000Z') - T0);
    expect(judged([first, nextDay]).c).toEqual({ verdict: 'plausible', reasons: [] });
    const onTime = reading('d', 80_100, DAY, { received_at: at(6 * DAY) });
    const late = reading('d', 80_100, DAY, { received_at: at(6 * DAY + 1) });
    expect(judged([first, onTime]).d?.reasons).toEqual([]);
    expect(judged([first, late]).d).toEqual({ verdict: 'plausible', reasons: ['late_report'] });
  });
});

describe('the too_fast bounds, each at its edge (contract/rules.ts)', () => {
  const edges = [
    { name: 'a day', elapsed: DAY, km: ODOMETER_MAX_KM_PER_DAY, value: 1_500 },
    { name: 'a week', elapsed: 7 * DAY, km: ODOMETER_MAX_KM_PER_WEEK, value: 7_000 },
    { name: 'a month', elapsed: 30 * DAY, km: ODOMETER_MAX_KM_PER_MONTH, value: 20_000 },
    { name: 'a quarter', elapsed: 91 * DAY, km: ODOMETER_MAX_KM_PER_QUARTER, value: 55_000 },
    { name: 'a year', elapsed: 365 * DAY, km: ODOMETER_MAX_KM_PER_YEAR, value: 200_000 },
  ];
  it.each(edges)('allows $value km in $name and not one more', ({ elapsed, km, value }) => {
    expect(km).toBe(value);
    expect(maxPlausibleKm(elapsed)).toBe(km);
    expect(pair(100_000, 100_000 + km, elapsed)).toEqual({ verdict: 'plausible', reasons: [] });
    expect(pair(100_000, 100_001 + km, elapsed)).toEqual({ verdict: 'implausible', reasons: ['too_fast'] });
  });

  it('counts less than a day, even no time at all, as a day', () => {
    expect(maxPlausibleKm(0)).toBe(ODOMETER_MAX_KM_PER_DAY);
    expect(maxPlausibleKm(DAY - 1)).toBe(ODOMETER_MAX_KM_PER_DAY);
    // Beyond a window, its bound is prorated: a day and a half, 2,250 km.
    expect(maxPlausibleKm(1.5 * DAY)).toBe(1.5 * ODOMETER_MAX_KM_PER_DAY);
    // The week's bound takes over from 4⅔ days (prorated: 14,000 km in two weeks), the month's from 20 days.
    expect(maxPlausibleKm(5 * DAY)).toBe(ODOMETER_MAX_KM_PER_WEEK);
    expect(maxPlausibleKm(14 * DAY)).toBe(2 * ODOMETER_MAX_KM_PER_WEEK);
    expect(maxPlausibleKm(25 * DAY)).toBe(ODOMETER_MAX_KM_PER_MONTH);
  });

  it('never allows less for a longer time', () => {
    fc.assert(
      fc.property(fc.nat({ max: 4 * 365 * DAY }), fc.nat({ max: 30 * DAY }), (elapsed, more) => {
        expect(maxPlausibleKm(elapsed + more)).toBeGreaterThanOrEqual(maxPlausibleKm(elapsed));
      }),
    );
  });
});

describe('judgeNewReading, the question before Insert', () => {
  it('maps lower_than_previous to lower and too_fast to too_high, against the reading just before it', () => {
    const known = [reading('a', 50_000, 0)];
    const now = at(2 * DAY);
    const previous = { odometer: 50_000, at: at(0) };
    expect(judgeNewReading(known, { odometer: 53_001, recorded_at: now })).toEqual({ kind: 'too_high', previous });
    expect(judgeNewReading(known, { odometer: 53_000, recorded_at: now })).toEqual({ kind: 'ok', previous });
    expect(judgeNewReading(known, { odometer: 49_900, recorded_at: now })).toEqual({ kind: 'lower', previous });
    // A new odometer starts a series: nothing to compare with.
    expect(judgeNewReading(known, { odometer: 10, recorded_at: now, correction_reason: 'odometer_replaced' })).toEqual({
      kind: 'ok',
      previous: null,
    });
  });
});
