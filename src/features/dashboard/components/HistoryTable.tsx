/**
 * Tab 2, History (docs/PRODUCT.md#history-tab, docs/ARCHITECTURE.md#the-offline-model-in-practice): synced and queued entries in one
 * list, newest first, 50 at a time so thousands of rows stay smooth. Refused entries show the
 * server's reason and can be corrected or discarded.
 */
import { OPERATION_FAILED } from '../../../lib/error-messages';
import { Button, EmptyState, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { REPAIRS_PAGE_DEFAULT } from '../../../../contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import { notify } from '../../../components/ui/toaster';
import { formatDateTime } from '../../../lib/dates';
import { loadOlderHistory, useHistory, type HistoryItem } from '../../../lib/history';
import { localized } from '../../../lib/localized';
import { formatKm } from '../../../lib/format';
import { useOnline } from '../../../lib/online';
import { discardRepair } from '../../../lib/sync';
import { useLocale } from '../hooks/useLocale';
import { StatusBadge } from './StatusBadge';

export const HISTORY_PAGE_SIZE = 50;

const CorrectEntryDialog = lazyDialog(
  () => import('./CorrectEntryDialog').then((module) => module.CorrectEntryDialog),
  (props: { item: HistoryItem | null }) => props.item !== null,
);

export function HistoryTable() {
  const { t, i18n } = useLingui();
  const locale = useLocale();
  const online = useOnline();
  const [limit, setLimit] = useState(HISTORY_PAGE_SIZE);
  const page = useHistory(limit);
  const [correcting, setCorrecting] = useState<HistoryItem | null>(null);
  const [discarding, setDiscarding] = useState<HistoryItem | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [serverExhausted, setServerExhausted] = useState(false);

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
      <EmptyState.Root>
        <EmptyState.Content>
          <EmptyState.Title>
            <Trans>Historique pas encore chargé</Trans>
          </EmptyState.Title>
          <EmptyState.Description>
            <Trans>Il s’affichera dès que la tablette sera connectée.</Trans>
          </EmptyState.Description>
        </EmptyState.Content>
      </EmptyState.Root>
    );
  }

  if (page.total === 0) {
    return (
      <EmptyState.Root>
        <EmptyState.Content>
          <EmptyState.Title>
            <Trans>Aucune saisie pour le moment</Trans>
          </EmptyState.Title>
          <EmptyState.Description>
            <Trans>Les kilométrages que vous enregistrez apparaîtront ici.</Trans>
          </EmptyState.Description>
        </EmptyState.Content>
      </EmptyState.Root>
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
    if (count === null) notify.error(i18n._(OPERATION_FAILED));
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
      <Table.ScrollArea borderWidth="1px" rounded="l3" bg="bg">
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
                <Trans>Statut</Trans>
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {page.items.map((item) => (
              <Table.Row key={item.id} data-status={item.status}>
                {/* The identifier reads left to right; the cell keeps the page's side, under its header. */}
                <Table.Cell textAlign="start" fontFamily="mono" whiteSpace="nowrap">
                  <span dir="ltr">{item.kodeId}</span>
                </Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap">
                  <span dir="ltr">{formatKm(item.odometer, locale)}</span>
                </Table.Cell>
                <Table.Cell textAlign="start">
                  {item.repairType ? localized({ ...item.repairType }, 'name', locale) : '—'}
                </Table.Cell>
                <Table.Cell textAlign="start" whiteSpace="nowrap">
                  <span dir="ltr">{formatDateTime(item.recordedAt)}</span>
                </Table.Cell>
                <Table.Cell textAlign="start" minWidth="40">
                  <Stack gap="1" align="flex-start">
                    <StatusBadge status={item.status} />
                    {item.status === 'rejected' && (
                      <>
                        {item.lastError?.message && (
                          <Text fontSize="sm" color="fg.error">
                            {item.lastError.message}
                          </Text>
                        )}
                        <HStack gap="2" wrap="wrap">
                          <Button
                            size="sm"
                            minHeight="11"
                            variant="outline"
                            colorPalette="brand"
                            aria-label={t`Corriger la saisie ${item.kodeId}`}
                            onClick={() => setCorrecting(item)}
                          >
                            <Trans>Corriger</Trans>
                          </Button>
                          <Button
                            size="sm"
                            minHeight="11"
                            variant="ghost"
                            colorPalette="red"
                            aria-label={t`Abandonner la saisie ${item.kodeId}`}
                            onClick={() => setDiscarding(item)}
                          >
                            <Trans>Abandonner</Trans>
                          </Button>
                        </HStack>
                      </>
                    )}
                  </Stack>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>

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
