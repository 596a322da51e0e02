/** The garage dashboard (docs/PRODUCT.md#garage-dashboard): statistics, then Add repair, History and Advices. */
import { Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { memo, useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { ChunkErrorBoundary } from '../../../components/ui/chunk-error-boundary';
import { HydrateLater } from '../../../components/ui/hydrate-later';
import { LoadingSpinner } from '../../../components/ui/loading-spinner';
import { retryableLazy, type RetryableLazy } from '../../../components/ui/retryable-lazy';
import { Tabs, type TabItem } from '../../../components/ui/tabs';
import { DASHBOARD_TABS, paths, type DashboardTab } from '../../../config/paths';
import type { LazyCatalog } from '../../../lib/lazy-catalog';
import { afterFirstScreen } from '../../../lib/start-up';
import { RepairForm } from '../components/RepairForm';
import { useHistoryCatalog } from '../catalog';
import { reachForHistoryData } from '../data/history-reach';
import { StatisticsRow } from '../components/StatisticsRow';

// The history and the advices load on demand (see usePreloadOtherTabs and the tabs'
// onIntent): the first screen is the entry form (docs/ARCHITECTURE.md#start-up). The service worker
// has them for offline use.
const HistoryTable = retryableLazy(async () => ({
  default: (await import('../components/HistoryTable')).HistoryTable,
}));
/** The history's code, its words and its first page, all started as the mechanic reaches for the tab. */
function reachForHistory(): void {
  reachForHistoryData();
  useHistoryCatalog.preload();
  HistoryTable.preload();
}

const AdvicesPanel = retryableLazy(async () => ({
  default: (await import('../components/AdvicesPanel')).AdvicesPanel,
}));

/**
 * A tab's panel whose code loads on demand: a spinner until its code and words are here, then the panel
 * drawn at once; Retry if its code cannot be fetched. It waits here rather than suspending: React holds
 * a panel revealed after a Suspense fallback back up to 300 ms.
 */
function LazyPanel({ Panel, words }: { Panel: RetryableLazy<object>; words: LazyCatalog }) {
  const [ready, setReady] = useState(() => Panel.isLoaded() && words.isLoaded());
  useEffect(() => {
    if (ready) return;
    let current = true;
    void Promise.all([Panel.preload(), words.preload()]).then(() => {
      if (current) setReady(true);
    });
    return () => {
      current = false;
    };
  }, [ready, Panel, words]);
  const spinner = <LoadingSpinner minHeight="40" />;
  return (
    <ChunkErrorBoundary reset={Panel.reset} loading={spinner}>
      {ready ? <Panel /> : spinner}
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
 * The other tabs' code and words load at the first moment to spare once the form is live, or at the
 * mechanic's first tap or key if that comes first: not part of the first screen's wait, and there
 * before a tab is opened, so the tab is drawn in the tap's own render (retryable-lazy.ts).
 */
function usePreloadOtherTabs(): void {
  useEffect(() => {
    let done = false;
    const preload = () => {
      if (done) return;
      done = true;
      HistoryTable.preload();
      useHistoryCatalog.preload();
      AdvicesPanel.preload();
    };
    afterFirstScreen(preload);
    const options = { once: true, capture: true } as const;
    window.addEventListener('pointerdown', preload, options);
    window.addEventListener('keydown', preload, options);
    return () => {
      window.removeEventListener('pointerdown', preload, options);
      window.removeEventListener('keydown', preload, options);
    };
  }, []);
}

/** Title and statistics: drawn again only when what they show changes, not at each change of tab. */
const DashboardHeading = memo(function DashboardHeading() {
  return (
    // The entry form is hydrated first, the rest right after (docs/ARCHITECTURE.md#start-up).
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
  );
});

/**
 * The same tabs at every render: a change of tab draws the tab list and the panel opened, not the
 * entry form kept hidden behind it (some 200 components).
 */
const TAB_ITEMS = [
  { value: 'add', label: <Trans>Nouvelle saisie</Trans>, panel: <RepairForm /> },
  {
    value: 'history',
    label: <Trans>Historique</Trans>,
    panel: <LazyPanel Panel={HistoryTable} words={useHistoryCatalog} />,
    onIntent: reachForHistory,
  },
  {
    value: 'advices',
    label: <Trans>Conseils</Trans>,
    panel: <LazyPanel Panel={AdvicesPanel} words={useHistoryCatalog} />,
    onIntent: AdvicesPanel.preload,
  },
] as const satisfies readonly TabItem<DashboardTab>[];

export default function DashboardPage() {
  const [tab, selectTab] = useDashboardTab();
  usePreloadOtherTabs();
  return (
    <Stack gap="2" maxWidth="6xl" mx="auto" width="full">
      <DashboardHeading />
      <Tabs value={tab} onValueChange={selectTab} triggerMinHeight="12" items={TAB_ITEMS} />
    </Stack>
  );
}
