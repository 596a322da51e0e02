/**
 * A certificate's readings in a buyer's words (docs/PRODUCT.md#mileage-certificate): what a verdict
 * means for the odometer rather than the rule's name, why a reading was corrected, and what was replaced.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  LATE_REPORT_MS,
  type CertificateReading,
  type CorrectionReason,
  type ReadingReason,
  type ReadingVerdictCode,
} from '../../../contract';

const LATE_REPORT_DAYS = LATE_REPORT_MS / (24 * 60 * 60 * 1000);

const VERDICT_WORDS: Record<ReadingVerdictCode, MessageDescriptor> = {
  plausible: msg`Cohérent avec le relevé précédent`,
  implausible: msg`Incohérent avec le relevé précédent`,
  // The vehicle's first reading, or the first after its odometer was replaced.
  no_verdict: msg`Rien à comparer : premier relevé du compteur`,
};

/** Each reason; `implausible`: one that makes the reading implausible, said as its verdict, the others as notes. */
const REASON_WORDS: Record<ReadingReason, { words: MessageDescriptor; implausible: boolean }> = {
  lower_than_previous: { words: msg`Incohérent : le compteur a reculé`, implausible: true },
  too_fast: { words: msg`Incohérent : trop de kilomètres pour le temps écoulé`, implausible: true },
  same_day_duplicate: { words: msg`Relevé deux fois le même jour`, implausible: false },
  late_report: { words: msg`Transmis plus de ${LATE_REPORT_DAYS} jours après le relevé`, implausible: false },
};

/** Why a garage corrected a reading, as the end of "Correction (…)". */
export const CORRECTION_WORDS: Record<CorrectionReason, MessageDescriptor> = {
  typo: msg`erreur de saisie`,
  wrong_vehicle: msg`relevé saisi sur un autre véhicule`,
  miles_as_km: msg`miles saisis comme kilomètres`,
  odometer_replaced: msg`compteur remplacé`,
};

/** The reading's verdict, by its reason when it is implausible, and the reasons that only inform. */
export function verdictOf(reading: CertificateReading): { verdict: MessageDescriptor; notes: MessageDescriptor[] } {
  const because = reading.reasons.find((reason) => REASON_WORDS[reason].implausible);
  return {
    verdict:
      reading.verdict === 'implausible' && because ? REASON_WORDS[because].words : VERDICT_WORDS[reading.verdict],
    notes: reading.reasons
      .filter((reason) => !REASON_WORDS[reason].implausible)
      .map((reason) => REASON_WORDS[reason].words),
  };
}
