/**
 * The history on a screen narrower than the table (docs/PRODUCT.md#history-tab): a tablet held upright
 * could not show the status column beside the others. One card per entry, in a list, the status at the
 * top beside the vehicle's identifier; the same facts, verdicts and buttons as a row of the table.
 */
import { Box, Grid, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { memo, type ReactNode } from 'react';
import type { Locale } from '../../../lib/i18n';
import type { EntryStatusLabel } from '../../../lib/entries/words';
import type { HistoryItem } from '../../../lib/entries/history';
import { EntryPhotoSlot } from '../photo/slot';
import {
  entryAttributes,
  hasVerification,
  OdometerText,
  RecordedAt,
  RefusedEntry,
  RepairTypeName,
  Verification,
  type EntryActions,
} from './HistoryEntry';
import { StatusBadge } from './StatusBadge';

export interface ShownEntry {
  item: HistoryItem;
  status: EntryStatusLabel;
}

/** What either layout of the history (the cards, the table) shows, and what its buttons do. */
export interface EntriesViewProps {
  entries: readonly ShownEntry[];
  locale: Locale;
  actions: EntryActions;
}

export function HistoryCards({ entries, locale, actions }: EntriesViewProps) {
  const { t } = useLingui();
  return (
    <Stack as="ul" gap="3" aria-label={t`Historique des saisies, des plus récentes aux plus anciennes`}>
      {entries.map(({ item, status }) => (
        <HistoryCard key={item.id} item={item} status={status} locale={locale} actions={actions} />
      ))}
    </Stack>
  );
}

/** One entry's card: drawn again only when the entry, its status or the language changes. */
const HistoryCard = memo(function HistoryCard({
  item,
  status,
  locale,
  actions,
}: ShownEntry & { locale: Locale; actions: EntryActions }) {
  return (
    <Box as="li" {...entryAttributes(item, status)} borderWidth="1px" rounded="l3" bg="bg" p="4">
      <Stack gap="3">
        <HStack justify="space-between" align="center" gap="3" wrap="wrap">
          {/* The identifier names the card for screen readers, and reads left to right in Arabic too. */}
          <Heading as="h2" size="md" fontFamily="mono">
            <span dir="ltr">{item.kodeId}</span>
          </Heading>
          <StatusBadge status={status} />
        </HStack>
        <Grid as="dl" templateColumns="repeat(auto-fill, minmax(9rem, 1fr))" columnGap="4" rowGap="3">
          <Fact label={<Trans>Kilométrage</Trans>}>
            <OdometerText item={item} locale={locale} />
          </Fact>
          {item.photo && (
            <Fact label={<Trans>Photo du compteur</Trans>}>
              <EntryPhotoSlot photo={item.photo} kodeId={item.kodeId} />
            </Fact>
          )}
          <Fact label={<Trans>Type de panne</Trans>}>
            <RepairTypeName item={item} locale={locale} />
          </Fact>
          <Fact label={<Trans>Date de saisie</Trans>}>
            <RecordedAt item={item} />
          </Fact>
          {hasVerification(item) && (
            <Fact label={<Trans>Vérification</Trans>} fullWidth>
              <Verification item={item} actions={actions} />
            </Fact>
          )}
        </Grid>
        {status === 'rejected' && <RefusedEntry item={item} actions={actions} />}
      </Stack>
    </Box>
  );
});

/** One label and its value; a long one (the verification) takes the card's whole width. */
function Fact({ label, fullWidth = false, children }: { label: ReactNode; fullWidth?: boolean; children: ReactNode }) {
  return (
    <Box gridColumn={fullWidth ? '1 / -1' : undefined} minWidth="0">
      <Text as="dt" fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Box as="dd" mt="0.5" overflowWrap="anywhere">
        {children}
      </Box>
    </Box>
  );
}
