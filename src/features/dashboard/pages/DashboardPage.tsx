/** The garage dashboard (docs/PRODUCT.md#garage-dashboard): statistics, then Add repair, History and Advices. */
import { Box, Heading, Stack, Tabs, Text } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { useLocation, useSearch } from 'wouter';
import { DASHBOARD_TABS, paths, type DashboardTab } from '../../../config/paths';
import { AdvicesPanel } from '../components/AdvicesPanel';
import { HistoryTable } from '../components/HistoryTable';
import { RepairForm } from '../components/RepairForm';
import { StatisticsRow } from '../components/StatisticsRow';

/** The open tab lives in the query (`/?tab=history`), so a link elsewhere (the banner's Correct) can open one. */
function useDashboardTab(): [DashboardTab, (tab: string) => void] {
  const search = useSearch();
  const [, navigate] = useLocation();
  const requested = new URLSearchParams(search).get('tab');
  const tab = DASHBOARD_TABS.find((candidate) => candidate === requested) ?? 'add';
  const select = (next: string) =>
    navigate(next === 'add' ? paths.dashboard : `${paths.dashboard}?tab=${next}`, { replace: true });
  return [tab, select];
}

export default function DashboardPage() {
  const [tab, selectTab] = useDashboardTab();
  return (
    <Stack gap={{ base: '4', md: '6' }} maxWidth="6xl" mx="auto" width="full">
      <Box>
        <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
          <Trans>Tableau de bord – Partenaire Garage</Trans>
        </Heading>
        <Text color="fg.muted" mt="1">
          <Trans>Nouvelle saisie et historique des kilométrages.</Trans>
        </Text>
      </Box>

      <StatisticsRow />

      <Tabs.Root value={tab} onValueChange={(details) => selectTab(details.value)} variant="line" size="lg" lazyMount>
        <Tabs.List overflowX="auto">
          <Tabs.Trigger value="add" minHeight="11">
            <Trans>Nouvelle saisie</Trans>
          </Tabs.Trigger>
          <Tabs.Trigger value="history" minHeight="11">
            <Trans>Historique</Trans>
          </Tabs.Trigger>
          <Tabs.Trigger value="advices" minHeight="11">
            <Trans>Conseils</Trans>
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="add">
          <RepairForm />
        </Tabs.Content>
        <Tabs.Content value="history">
          <HistoryTable />
        </Tabs.Content>
        <Tabs.Content value="advices">
          <AdvicesPanel />
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}
