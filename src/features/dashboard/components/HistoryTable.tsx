/**
 * Tab 2, History (docs/PRODUCT.md#history-tab, docs/ARCHITECTURE.md#the-offline-model-in-practice): synced and queued entries in one
 * list, newest first, 50 at a time so thousands of rows stay smooth. Refused entries show the
 * server's reason and can be corrected or discarded. A table where it fits, cards on a narrower screen.
 */
import { OPERATION_FAILED } from '../../../lib/error-messages';
import {
  Button,
  EmptyState,
  HStack,
  Stack,
  Table,
  Text,
  type SystemContext,
  type SystemStyleObject,
} from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { memo, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { REPAIRS_PAGE_DEFAULT } from '../../../../contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import { EntryPhotoSlot } from '../photo/slot';
import { staticStyles } from '../../../components/ui/static-styles';
import { notify } from '../../../components/ui/toaster';
import { formatDateTime } from '../../../lib/dates';
import { HISTORY_PAGE_SIZE, loadOlderHistory, useHistory, type HistoryItem } from '../../../lib/entries/history';
import { formatKm } from '../../../lib/format';
import { useOnline } from '../../../lib/online';
import { discardRepair } from '../../../lib/entries';
import { useLocale } from '../../../lib/i18n';
import { StatusBadge } from './StatusBadge';
import { HistoryCards, type EntriesViewProps, type ShownEntry } from './HistoryCards';
import type { Locale } from '../../../lib/i18n';
import {
  entryAttributes,
  OdometerText,
  RecordedAt,
  RefusedEntry,
  RepairTypeName,
  shownStatus,
  Verification,
  type EntryActions,
} from './HistoryEntry';
import { useHistoryCatalog } from '../catalog';
import { ChunkErrorBoundary } from '../../../components/ui/chunk-error-boundary';
import { retryableLazy } from '../../../components/ui/retryable-lazy';
import { useSeen } from '../../../hooks/use-seen';

const CorrectEntryDialog = lazyDialog(
  () => import('./CorrectEntryDialog').then((module) => module.CorrectEntryDialog),
  { isOpen: (props) => props.item !== null, close: (props) => props.onClose() },
);

const CorrectRepairDialog = lazyDialog(
  () => import('./CorrectRepairDialog').then((module) => module.CorrectRepairDialog),
  { isOpen: (props) => props.item !== null, close: (props) => props.onClose() },
);

function EmptyHistory({ title, description }: { title: ReactNode; description: ReactNode }) {
  return (
    <EmptyState.Root>
      <EmptyState.Content>
        <EmptyState.Title>{title}</EmptyState.Title>
        <EmptyState.Description>{description}</EmptyState.Description>
      </EmptyState.Content>
    </EmptyState.Root>
  );
}

/**
 * Below Chakra's `lg` breakpoint (1024 px) the table cannot show every column with real entries (long
 * repair types, a refused entry's reason and buttons): the history is a list of cards there. One
 * layout is rendered, not two hidden by CSS, so screen readers and tests meet each entry once.
 */
const NARROW_SCREEN = '(width < 64rem)';

function subscribeToWidth(listener: () => void): () => void {
  const query = window.matchMedia(NARROW_SCREEN);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribeToWidth,
    () => window.matchMedia(NARROW_SCREEN).matches,
    () => false,
  );
}

function HistoryEntries() {
  useHistoryCatalog();
  const { i18n } = useLingui();
  const locale = useLocale();
  const online = useOnline();
  const narrow = useNarrowScreen();
  const [limit, setLimit] = useState(HISTORY_PAGE_SIZE);
  const page = useHistory(limit);
  const [correcting, setCorrecting] = useState<HistoryItem | null>(null);
  const [correctingStored, setCorrectingStored] = useState<HistoryItem | null>(null);
  const [discarding, setDiscarding] = useState<HistoryItem | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [serverExhausted, setServerExhausted] = useState(false);
  const entries = useMemo(
    () => page?.items.map((item): ShownEntry => ({ item, status: shownStatus(item.status, online) })) ?? [],
    [page, online],
  );
  // The same object at every render: a row whose entry did not change is not drawn again.
  const actions = useMemo<EntryActions>(
    () => ({
      correctStored: setCorrectingStored,
      correctRefused: setCorrecting,
      // The same dialog as a stored entry's correction, started from this tablet's values.
      correctConflict: setCorrectingStored,
      discard: setDiscarding,
    }),
    [],
  );

  if (!page) {
    return (
      <Text color="fg.muted" role="status">
        <Trans>Chargement…</Trans>
      </Text>
    );
  }

  if (page.total === 0 && page.refreshedAt === null && !online) {
    // Never fetched and offline: "no entries" would be a claim the tablet cannot make.
    return (
      <EmptyHistory
        title={<Trans>Historique pas encore chargé</Trans>}
        description={<Trans>Il s’affichera dès que la tablette sera connectée.</Trans>}
      />
    );
  }

  if (page.total === 0) {
    return (
      <EmptyHistory
        title={<Trans>Aucune saisie pour le moment</Trans>}
        description={<Trans>Les kilométrages que vous enregistrez apparaîtront ici.</Trans>}
      />
    );
  }

  const hasMoreLocal = page.items.length < page.total;
  // The first refresh brings the newest 100 from the server; older ones are fetched on request.
  const mayHaveOlder = online && !serverExhausted && page.total >= REPAIRS_PAGE_DEFAULT;

  async function showMore() {
    if (hasMoreLocal) {
      setLimit((current) => current + HISTORY_PAGE_SIZE);
      return;
    }
    setLoadingOlder(true);
    const count = await loadOlderHistory();
    setLoadingOlder(false);
    if (count === null) notify.error(() => i18n._(OPERATION_FAILED));
    else if (count === 0) setServerExhausted(true);
    else setLimit((current) => current + HISTORY_PAGE_SIZE);
  }

  async function confirmDiscard() {
    if (!discarding) return;
    await discardRepair(discarding.id);
    setDiscarding(null);
  }

  return (
    <Stack gap="4">
      {narrow ? (
        <HistoryCards entries={entries} locale={locale} actions={actions} />
      ) : (
        <EntriesTable entries={entries} locale={locale} actions={actions} />
      )}

      <HStack justify="space-between" wrap="wrap" gap="3">
        <Stack gap="0">
          <Text color="fg.muted" fontSize="sm" aria-live="polite">
            <Trans>
              {page.items.length} sur {page.total}
            </Trans>
          </Text>
          {page.refreshedAt && (
            <Text color="fg.muted" fontSize="sm" data-testid="history-refreshed-at">
              <Trans>
                Actualisé depuis le serveur le <bdi>{formatDateTime(page.refreshedAt)}</bdi>
              </Trans>
            </Text>
          )}
        </Stack>
        {(hasMoreLocal || mayHaveOlder) && (
          <Button variant="outline" size="lg" loading={loadingOlder} onClick={() => void showMore()}>
            <Trans>Afficher plus</Trans>
          </Button>
        )}
      </HStack>

      <CorrectEntryDialog item={correcting} onClose={() => setCorrecting(null)} />
      <CorrectRepairDialog item={correctingStored} onClose={() => setCorrectingStored(null)} />
      <ConfirmDialog
        open={discarding !== null}
        tone="danger"
        title={<Trans>Abandonner cette saisie ?</Trans>}
        confirmLabel={<Trans>Abandonner</Trans>}
        cancelLabel={<Trans>Garder</Trans>}
        onConfirm={() => void confirmDiscard()}
        onCancel={() => setDiscarding(null)}
      >
        <Text>
          <Trans>
            La saisie {discarding?.kodeId} ({discarding ? formatKm(discarding.odometer, locale) : ''}) sera supprimée de
            la tablette et ne sera jamais envoyée.
          </Trans>
        </Text>
      </ConfirmDialog>
    </Stack>
  );
}

/**
 * From 1024 px wide. Its text wraps (Chakra's scroll area keeps everything on one line, which pushed
 * the status column past the edge): only the identifier, the reading and the date stay whole, so every
 * column fits beside the others without scrolling sideways.
 */
function EntriesTable({ entries, locale, actions }: EntriesViewProps) {
  return (
    <Table.ScrollArea borderWidth="1px" rounded="l3" bg="bg" whiteSpace="normal">
      <Table.Root size="md" stickyHeader>
        <Table.Caption srOnly={true} captionSide="top">
          <Trans>Historique des saisies, des plus récentes aux plus anciennes</Trans>
        </Table.Caption>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader textAlign="start">
              <Trans>Identifiant du véhicule</Trans>
            </Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">
              <Trans>Kilométrage</Trans>
            </Table.ColumnHeader>
            <Table.ColumnHeader textAlign="start">
              <Trans>Type de panne</Trans>
            </Table.ColumnHeader>
            <Table.ColumnHeader textAlign="start">
              <Trans>Date de saisie</Trans>
            </Table.ColumnHeader>
            <Table.ColumnHeader textAlign="start">
              <Trans>Vérification</Trans>
            </Table.ColumnHeader>
            <Table.ColumnHeader textAlign="start">
              <Trans>Statut</Trans>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {entries.map(({ item, status }) => (
            <EntryRow key={item.id} item={item} status={status} locale={locale} actions={actions} />
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/**
 * The table's rows and cells: Chakra's table recipe (size md, line) with each column's own styles,
 * resolved once (docs/ARCHITECTURE.md#start-up); the header and the frame stay Chakra's components.
 */
const tableSlot = (system: SystemContext, slot: 'row' | 'cell') =>
  system.getSlotRecipeFn('table')({ size: 'md', variant: 'line' })[slot] ?? {};
const cell = (own: SystemStyleObject) => (system: SystemContext) => [tableSlot(system, 'cell'), own];
const useRowClasses = staticStyles({
  row: (system) => tableSlot(system, 'row'),
  identifier: cell({ textAlign: 'start', fontFamily: 'mono', whiteSpace: 'nowrap' }),
  reading: cell({ textAlign: 'end', whiteSpace: 'nowrap' }),
  repairType: cell({ textAlign: 'start' }),
  date: cell({ textAlign: 'start', whiteSpace: 'nowrap' }),
  verification: cell({ textAlign: 'start', minWidth: '44', maxWidth: '60' }),
  status: cell({ textAlign: 'start', minWidth: '40', maxWidth: '56' }),
  photo: { display: 'flex', justifyContent: 'flex-end', mt: '2' },
  statusColumn: { display: 'flex', flexDirection: 'column', gap: '1', alignItems: 'flex-start' },
});

/** One entry's row: drawn again only when the entry, its status or the language changes. */
const EntryRow = memo(function EntryRow({
  item,
  status,
  locale,
  actions,
}: ShownEntry & { locale: Locale; actions: EntryActions }) {
  const classes = useRowClasses();
  const cellClass = (name: Exclude<keyof typeof classes, 'row' | 'photo' | 'statusColumn'>) =>
    `chakra-table__cell ${classes[name]}`;
  return (
    <tr className={`chakra-table__row ${classes.row}`} {...entryAttributes(item, status)}>
      {/* The identifier reads left to right; the cell keeps the page's side, under its header. */}
      <td className={cellClass('identifier')}>
        <span dir="ltr">{item.kodeId}</span>
      </td>
      <td className={cellClass('reading')}>
        <OdometerText item={item} locale={locale} />
        {item.photo && (
          <div className={classes.photo}>
            <EntryPhotoSlot photo={item.photo} kodeId={item.kodeId} />
          </div>
        )}
      </td>
      <td className={cellClass('repairType')}>
        <RepairTypeName item={item} locale={locale} />
      </td>
      <td className={cellClass('date')}>
        <RecordedAt item={item} />
      </td>
      <td className={cellClass('verification')}>
        <Verification item={item} actions={actions} />
      </td>
      <td className={cellClass('status')}>
        <div className={classes.statusColumn}>
          <StatusBadge status={status} />
          {status === 'rejected' && <RefusedEntry item={item} actions={actions} />}
        </div>
      </td>
    </tr>
  );
});

/** The garage's certificates, in a chunk of their own. */
const IssuedCertificates = retryableLazy(() => import('../certificates/IssuedCertificates'));

/**
 * The certificates below the entries, loaded and drawn once the mechanic scrolls within a screen of
 * them: below a long History they would otherwise be loaded and drawn while its entries are (npm run
 * bench, History: the first rows 423 ms against 369 ms before there were certificates).
 */
function CertificatesBelowEntries() {
  const place = useRef<HTMLDivElement>(null);
  const near = useSeen(place, '100% 0px');
  return (
    <div ref={place}>
      {near && (
        <ChunkErrorBoundary reset={IssuedCertificates.reset}>
          <IssuedCertificates />
        </ChunkErrorBoundary>
      )}
    </div>
  );
}

/** The History tab: the entries, then the mileage certificates the garage issued. */
export function HistoryTable() {
  return (
    <>
      <HistoryEntries />
      <CertificatesBelowEntries />
    </>
  );
}
