/**
 * One entry's two versions under one Idempotency-Key, field by field (docs/ARCHITECTURE.md#the-hand-over-file):
 * this tablet's values and the server's (the history) or a hand-over file's (an import). Only the
 * fields that differ; each value names its side, for the eye and for screen readers alike.
 */
import { Box, Stack, Text } from '@chakra-ui/react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { RepairType } from '../../contract';
import { formatDateTime } from '../lib/dates';
import { formatKm } from '../lib/format';
import { useLocale, type Locale } from '../lib/i18n';
import { localized } from '../lib/localized';
import type { ComparedField, EntryDifference } from '../lib/entries/words';

const FIELD_LABELS: Record<ComparedField, MessageDescriptor> = {
  kode_id: msg`Identifiant du véhicule`,
  odometer: msg`Kilométrage`,
  repair_type_id: msg`Type de panne`,
  recorded_at: msg`Date de saisie`,
  note: msg`Note`,
  corrects: msg`Saisie corrigée`,
  correction_reason: msg`Motif de la correction`,
};

/** Fields whose values read left to right in every language. */
const LEFT_TO_RIGHT: ReadonlySet<ComparedField> = new Set(['kode_id', 'odometer', 'recorded_at', 'corrects']);

export interface DifferenceNames {
  /** The repair types the values may name, for their names in the mechanic's language. */
  repairTypes: readonly RepairType[];
  /** The words for a correction reason; its code otherwise. */
  correctionReason?: (reason: string) => string;
}

function shownValue(
  field: ComparedField,
  value: EntryDifference['here'],
  locale: Locale,
  names: DifferenceNames,
): string {
  if (value === null || value === '') return '—';
  if (field === 'odometer' && typeof value === 'number') return formatKm(value, locale);
  if (field === 'recorded_at' && typeof value === 'string') return formatDateTime(value);
  if (field === 'repair_type_id') {
    const type = names.repairTypes.find((candidate) => candidate.id === value);
    return type ? localized({ ...type }, 'name', locale) : String(value);
  }
  if (field === 'correction_reason' && names.correctionReason) return names.correctionReason(String(value));
  return String(value);
}

/** One side's value, named: "Sur cette tablette : 120 500 km". */
function SideValue({ side, field, children }: { side: string; field: ComparedField; children: string }) {
  return (
    <Text as="dd" fontSize="sm" overflowWrap="anywhere">
      {side} :{' '}
      <Text as="span" fontWeight="semibold" whiteSpace={LEFT_TO_RIGHT.has(field) ? 'nowrap' : undefined}>
        {LEFT_TO_RIGHT.has(field) ? <bdi dir="ltr">{children}</bdi> : children}
      </Text>
    </Text>
  );
}

/**
 * A list of fields, each with its two values one under the other: it fits a table's narrow column as
 * well as a card, in either direction of text.
 */
export function EntryDifferences({
  differences,
  thereLabel,
  names,
}: {
  differences: readonly EntryDifference[];
  /** Whose the other values are: the server's, or the file's. */
  thereLabel: string;
  names: DifferenceNames;
}) {
  const { t, i18n } = useLingui();
  const locale = useLocale();
  const hereLabel = t`Sur cette tablette`;
  return (
    <Stack as="dl" gap="1.5">
      {differences.map(({ field, here, there }) => (
        <Box key={field} data-field={field}>
          <Text as="dt" fontSize="sm" color="fg.muted">
            {i18n._(FIELD_LABELS[field])}
          </Text>
          <SideValue side={hereLabel} field={field}>
            {shownValue(field, here, locale, names)}
          </SideValue>
          <SideValue side={thereLabel} field={field}>
            {shownValue(field, there, locale, names)}
          </SideValue>
        </Box>
      ))}
    </Stack>
  );
}
