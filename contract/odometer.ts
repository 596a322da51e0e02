/**
 * The PWA's question before Insert (docs/PRODUCT.md#odometer-plausibility): the new reading judged with
 * every reading the tablet knows of the vehicle, by the rules of contract/readings.ts that the server
 * stores verdicts by.
 */
import { judgeCandidate, type CorrectionReason, type Reading } from './readings';

export interface KnownReading {
  odometer: number;
  /** ISO 8601: when it was recorded. */
  at: string;
}

export type ReadingVerdict =
  { kind: 'ok'; previous: KnownReading | null } | { kind: 'lower' | 'too_high'; previous: KnownReading };

/** The id the reading being judged takes among the known ones (theirs are server ids or Idempotency-Keys). */
const NEW_READING_ID = 'new-reading';

/**
 * Judges a reading about to be recorded at `recordedAt` against `known`: 'lower' when the rules would
 * call it lower_than_previous, 'too_high' for too_fast, with the reading it was compared with.
 */
export function judgeNewReading(
  known: readonly Reading[],
  reading: { odometer: number; recorded_at: string; correction_reason?: CorrectionReason | null },
): ReadingVerdict {
  const { judgement, previous } = judgeCandidate(known, {
    id: NEW_READING_ID,
    odometer: reading.odometer,
    recorded_at: reading.recorded_at,
    received_at: null,
    superseded: false,
    correction_reason: reading.correction_reason ?? null,
  });
  const before = previous && { odometer: previous.odometer, at: previous.recorded_at };
  if (!before) return { kind: 'ok', previous: null };
  if (judgement.reasons.includes('lower_than_previous')) return { kind: 'lower', previous: before };
  if (judgement.reasons.includes('too_fast')) return { kind: 'too_high', previous: before };
  return { kind: 'ok', previous: before };
}
