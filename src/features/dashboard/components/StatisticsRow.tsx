/**
 * The partner's totals above the tabs, from the tablet's copy (offline too), with when the server
 * gave them and how many entries still wait on the tablet. Until the first numbers are known the tiles
 * show their labels with empty values, so the tabs below keep their place; hidden only when there are
 * none and the server cannot be reached.
 */
import { Flex, Stat, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatDateTime } from '../../../lib/dates';
import { formatNumber } from '../../../lib/format';
import { useLocale, type Locale } from '../../../lib/i18n';
import type { Statistics } from '../../../../contract';
import { useStatistics } from '../hooks/useStatistics';

/** '—' for numbers the tablet kept from a server that did not count them yet. */
function implausibleCount(statistics: Partial<Pick<Statistics, 'implausible_total'>>, locale: Locale): string {
  return statistics.implausible_total === undefined ? '—' : formatNumber(statistics.implausible_total, locale);
}

export function StatisticsRow() {
  const { t } = useLingui();
  const locale = useLocale();
  const view = useStatistics();
  if (view === null) return null;
  const statistics = view?.statistics;
  const pending = view?.pending ?? 0;
  // A no-break space while loading: the value line keeps its height.
  const loading = '\u00a0';
  const pendingCount = formatNumber(pending, locale);
  const tiles = [
    {
      label: t`Saisies au total`,
      value: statistics ? formatNumber(statistics.repairs_total, locale) : loading,
      // Entries still on the tablet are not in the server's numbers yet: said beside the total.
      help: pending > 0 ? t`+${pendingCount} en attente d’envoi` : null,
    },
    { label: t`Saisies ce mois-ci`, value: statistics ? formatNumber(statistics.repairs_this_month, locale) : loading },
    { label: t`Véhicules`, value: statistics ? formatNumber(statistics.vehicles_total, locale) : loading },
    {
      label: t`Dernière saisie`,
      value: !statistics ? loading : statistics.last_repair_at ? formatDateTime(statistics.last_repair_at) : '—',
      // A date and time is wider than a count: smaller, on one line, so the tile (and the tabs below)
      // keep their height when the first entry's date replaces '—'.
      long: true,
    },
    {
      // docs/PRODUCT.md#statistics: the partner's standing readings the odometer rules call implausible.
      label: t`Relevés invraisemblables`,
      value: !statistics ? loading : implausibleCount(statistics, locale),
    },
  ];
  // Loading: the same grid, hidden from assistive technology (there is nothing to read yet).
  const region = view
    ? ({ as: 'section', 'aria-label': t`Statistiques` } as const)
    : ({ as: 'div', 'aria-hidden': true } as const);
  return (
    // One strip, each figure with its label on one line, and when the server gave them at its end:
    // with the title it leaves a landscape tablet the height the whole entry needs
    // (docs/PRODUCT.md#statistics). Wrapped where a narrow screen needs it.
    <Flex
      {...region}
      wrap="wrap"
      align="center"
      columnGap="5"
      rowGap="1"
      bg="bg"
      borderWidth="1px"
      rounded="l2"
      px="4"
      py="1.5"
      minHeight="10"
    >
      {tiles.map((tile) => (
        <Stat.Root key={tile.label} flexDirection="row" alignItems="baseline" gap="1.5" flex="none">
          <Stat.Label fontSize="xs">{tile.label}</Stat.Label>
          <Stat.ValueText fontSize={tile.long ? 'sm' : 'md'} fontWeight="semibold" whiteSpace="nowrap">
            <bdi>{tile.value}</bdi>
          </Stat.ValueText>
          {tile.help && (
            <Stat.HelpText color="fg.warning" fontSize="xs" data-testid="statistics-pending">
              {tile.help}
            </Stat.HelpText>
          )}
        </Stat.Root>
      ))}
      {/* Kept while loading too (a no-break space): the tabs below stay where the page's frame painted them. */}
      <Text fontSize="xs" color="fg.muted" marginStart="auto" data-testid={view ? 'statistics-fetched-at' : undefined}>
        {view ? (
          <Trans>
            Chiffres du serveur au <bdi>{formatDateTime(view.fetchedAt)}</bdi>
          </Trans>
        ) : (
          loading
        )}
      </Text>
    </Flex>
  );
}
