/** The garage dashboard (docs/PRODUCT.md#garage-dashboard): statistics, then Add repair, History and Advices. */
import { Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { ChunkErrorBoundary } from '../../../components/ui/chunk-error-boundary';
import { HydrateLater } from '../../../components/ui/hydrate-later';
import { LoadingSpinner } from '../../../components/ui/loading-spinner';
import { retryableLazy, type RetryableLazy } from '../../../components/ui/retryable-lazy';
import { Tabs } from '../../../components/ui/tabs';
import { DASHBOARD_TABS, paths, type DashboardTab } from '../../../config/paths';
import { RepairForm } from '../components/RepairForm';
import { StatisticsRow } from '../components/StatisticsRow';

// The history and the advices load on demand (see usePreloadOtherTabsOnFirstInput and the tabs'
// onIntent): the first screen is the entry form (docs/ARCHITECTURE.md#start-up). The service worker
// has them for offline use.
const HistoryTable = retryableLazy(async () => ({
  default: (await import('../components/HistoryTable')).HistoryTable,
}));
/** The history's code and its first page, both started as the mechanic reaches for the tab. */
function reachForHistory(): void {
  HistoryTable.preload();
  void import('../data/history').then(({ warmHistory }) => warmHistory());
}

const AdvicesPanel = retryableLazy(async () => ({
  default: (await import('../components/AdvicesPanel')).AdvicesPanel,
}));

/** A tab's panel whose code loads on demand: a spinner meanwhile, Retry if it cannot be fetched. */
function LazyPanel({ Panel }: { Panel: RetryableLazy<object> }) {
  return (
    <ChunkErrorBoundary reset={Panel.reset} loading={<LoadingSpinner minHeight="40" />}>
      <Panel />
    </ChunkErrorBoundary>
  );
}

/** The open tab lives in the query (`/?tab=history`), so a link elsewhere (the banner's Correct) can open one. */
function useDashboardTab(): [DashboardTab, (tab: DashboardTab) => void] {
  const search = useSearch();
  const [, navigate] = useLocation();
  const requested = new URLSearchParams(search).get('tab');
  const tab = DASHBOARD_TABS.find((candidate) => candidate === requested) ?? 'add';
  const select = (next: DashboardTab) => {
    // A tap without a finger down first (a keyboard, a test): the page is read from now.
    if (next === 'history') reachForHistory();
    navigate(next === 'add' ? paths.dashboard : `${paths.dashboard}?tab=${next}`, { replace: true });
  };
  return [tab, select];
}

/**
 * The other tabs' code loads once the mechanic starts working on the page (a tap or a key anywhere):
 * not part of the first screen's wait, and usually there before the tab is opened.
 */
function usePreloadOtherTabsOnFirstInput(): void {
  useEffect(() => {
    const preload = () => {
      HistoryTable.preload();
      AdvicesPanel.preload();
    };
    const options = { once: true, capture: true } as const;
    window.addEventListener('pointerdown', preload, options);
    window.addEventListener('keydown', preload, options);
    return () => {
      window.removeEventListener('pointerdown', preload, options);
      window.removeEventListener('keydown', preload, options);
    };
  }, []);
}

export default function DashboardPage() {
  const [tab, selectTab] = useDashboardTab();
  usePreloadOtherTabsOnFirstInput();
  return (
    <Stack gap="2" maxWidth="6xl" mx="auto" width="full">
      {/* The entry form is hydrated first, the rest right after (docs/ARCHITECTURE.md#start-up). */}
      <HydrateLater>
        {/* Title and subtitle on one line where they fit: the entry below needs the height. */}
        <Flex wrap="wrap" align="baseline" columnGap="4" rowGap="0.5">
          <Heading as="h1" size="xl">
            <Trans>Tableau de bord – Partenaire Garage</Trans>
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            <Trans>Nouvelle saisie et historique des kilométrages.</Trans>
          </Text>
        </Flex>

        <StatisticsRow />
      </HydrateLater>

      <Tabs
        value={tab}
        onValueChange={selectTab}
        triggerMinHeight="12"
        items={[
          { value: 'add', label: <Trans>Nouvelle saisie</Trans>, panel: <RepairForm /> },
          {
            value: 'history',
            label: <Trans>Historique</Trans>,
            panel: <LazyPanel Panel={HistoryTable} />,
            onIntent: reachForHistory,
          },
          {
            value: 'advices',
            label: <Trans>Conseils</Trans>,
            panel: <LazyPanel Panel={AdvicesPanel} />,
            onIntent: AdvicesPanel.preload,
          },
        ]}
      />
    </Stack>
  );
}
