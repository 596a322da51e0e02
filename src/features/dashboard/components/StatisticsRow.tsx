/**
 * The partner's totals above the tabs; hidden while they cannot be fetched (offline). Until the first
 * answer the tiles show their labels with empty values, so the tabs below keep their place.
 */
import { SimpleGrid, Stat } from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';
import { formatDateTime } from '../../../lib/dates';
import { formatNumber } from '../../../lib/format';
import { useLocale } from '../hooks/useLocale';
import { useStatistics } from '../hooks/useStatistics';

export function StatisticsRow() {
  const { t } = useLingui();
  const locale = useLocale();
  const statistics = useStatistics();
  if (statistics === null) return null;
  // A no-break space while loading: the value line keeps its height.
  const loading = '\u00a0';
  const tiles = [
    { label: t`Saisies au total`, value: statistics ? formatNumber(statistics.repairs_total, locale) : loading },
    { label: t`Saisies ce mois-ci`, value: statistics ? formatNumber(statistics.repairs_this_month, locale) : loading },
    { label: t`Véhicules`, value: statistics ? formatNumber(statistics.vehicles_total, locale) : loading },
    {
      label: t`Dernière saisie`,
      value: !statistics ? loading : statistics.last_repair_at ? formatDateTime(statistics.last_repair_at) : '—',
    },
  ];
  // Loading: the same grid, hidden from assistive technology (there is nothing to read yet).
  const region = statistics
    ? ({ as: 'section', 'aria-label': t`Statistiques` } as const)
    : ({ as: 'div', 'aria-hidden': true } as const);
  return (
    <SimpleGrid {...region} columns={{ base: 2, lg: 4 }} gap={{ base: '3', md: '4' }}>
      {tiles.map((tile) => (
        <Stat.Root key={tile.label} bg="bg" borderWidth="1px" rounded="l3" px="4" py="3">
          <Stat.Label>{tile.label}</Stat.Label>
          <Stat.ValueText fontSize={{ base: 'lg', md: '2xl' }}>
            <bdi>{tile.value}</bdi>
          </Stat.ValueText>
        </Stat.Root>
      ))}
    </SimpleGrid>
  );
}
