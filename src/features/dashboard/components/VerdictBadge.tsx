/**
 * A reading's verdict and its reasons, in the history and the vehicle's timeline
 * (docs/PRODUCT.md#odometer-plausibility).
 */
import { StaticBadge, type BadgePalette } from '../../../components/ui/static-badge';
import { staticStyles } from '../../../components/ui/static-styles';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import type { CorrectionReason, ReadingReason, ReadingVerdictCode } from '../../../../contract';

const VERDICTS: Record<ReadingVerdictCode, { label: MessageDescriptor; palette: BadgePalette }> = {
  plausible: { label: msg`Plausible`, palette: 'green' },
  implausible: { label: msg`Invraisemblable`, palette: 'red' },
  // Nothing to compare with: said by why (below).
  no_verdict: { label: msg`Pas de comparaison`, palette: 'gray' },
};

/** A reading with nothing before it: the vehicle's first, in words a mechanic or a buyer reads at once. */
const FIRST_READING = msg`Premier relevé`;

export const REASON_LABELS: Record<ReadingReason, MessageDescriptor> = {
  lower_than_previous: msg`Inférieur au relevé précédent`,
  too_fast: msg`Trop de kilomètres pour le temps écoulé`,
  same_day_duplicate: msg`Même relevé le même jour`,
  late_report: msg`Transmis plus de 5 jours après le relevé`,
};

export const CORRECTION_REASON_LABELS: Record<CorrectionReason, MessageDescriptor> = {
  typo: msg`Erreur de saisie`,
  wrong_vehicle: msg`Mauvais véhicule`,
  miles_as_km: msg`Miles saisis comme kilomètres`,
  odometer_replaced: msg`Compteur remplacé`,
};

/**
 * `first`: the vehicle's first reading, so that "nothing to compare with" says why ("Premier relevé");
 * otherwise (the first after an odometer replacement) "Pas de comparaison".
 */
export function VerdictBadge({ verdict, first = false }: { verdict: ReadingVerdictCode; first?: boolean }) {
  const { i18n } = useLingui();
  const look = VERDICTS[verdict];
  const label = verdict === 'no_verdict' && first ? FIRST_READING : look.label;
  return (
    <StaticBadge palette={look.palette} variant={verdict === 'implausible' ? 'solid' : 'subtle'}>
      {i18n._(label)}
    </StaticBadge>
  );
}

const useReasonsClasses = staticStyles({ text: { fontSize: 'sm', color: 'fg.muted' } });

/** The reasons as a sentence fragment list; nothing when there are none. */
export function ReasonsText({ reasons }: { reasons: readonly ReadingReason[] }) {
  const { i18n } = useLingui();
  const classes = useReasonsClasses();
  if (reasons.length === 0) return null;
  return (
    <p className={`chakra-text ${classes.text}`}>
      {reasons.map((reason) => i18n._(REASON_LABELS[reason])).join(' · ')}
    </p>
  );
}
