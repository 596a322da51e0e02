/** The partner's totals above the tabs; hidden while they cannot be fetched (offline). */
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
  if (!statistics) return null;
  const tiles = [
    { label: t`Saisies au total`, value: formatNumber(statistics.repairs_total, locale) },
    { label: t`Saisies ce mois-ci`, value: formatNumber(statistics.repairs_this_month, locale) },
    { label: t`Véhicules`, value: formatNumber(statistics.vehicles_total, locale) },
    {
      label: t`Dernière saisie`,
      value: statistics.last_repair_at ? formatDateTime(statistics.last_repair_at) : '—',
    },
  ];
  return (
    <SimpleGrid as="section" aria-label={t`Statistiques`} columns={{ base: 2, lg: 4 }} gap={{ base: '3', md: '4' }}>
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
