/**
 * Tab 2, History (docs/PRODUCT.md#history-tab, docs/ARCHITECTURE.md#the-offline-model-in-practice): synced and queued entries in one
 * list, newest first, 50 at a time so thousands of rows stay smooth. Refused entries show the
 * server's reason and can be corrected or discarded.
 */
import { OPERATION_FAILED } from '../../../lib/error-messages';
import { Badge, Button, EmptyState, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import { REPAIRS_PAGE_DEFAULT } from '../../../../contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import { notify } from '../../../components/ui/toaster';
import { formatDateTime } from '../../../lib/dates';
import { loadOlderHistory, useHistory, type HistoryItem } from '../data/history';
import { localized } from '../../../lib/localized';
import { formatKm } from '../../../lib/format';
import { useOnline } from '../../../lib/online';
import { discardRepair } from '../../../lib/sync';
import { useLocale } from '../../../lib/i18n';
import { StatusBadge } from './StatusBadge';
import { CORRECTION_REASON_LABELS, ReasonsText, VerdictBadge } from './VerdictBadge';

export const HISTORY_PAGE_SIZE = 50;

const CorrectEntryDialog = lazyDialog(
  () => import('./CorrectEntryDialog').then((module) => module.CorrectEntryDialog),
  { isOpen: (props) => props.item !== null, close: (props) => props.onClose() },
);

const CorrectRepairDialog = lazyDialog(
  () => import('./CorrectRepairDialog').then((module) => module.CorrectRepairDialog),
  { isOpen: (props) => props.item !== null, close: (props) => props.onClose() },
);

/** Whether a stored entry can still be corrected (the server has the last word when it arrives). */
function correctable(item: HistoryItem): item is HistoryItem & { correctableUntil: string } {
  return item.correctableUntil !== null && Date.now() < Date.parse(item.correctableUntil);
}

/** The verdict column: the server's verdict, a correction's state, and until when it can be corrected. */
function Verification({ item, onCorrect }: { item: HistoryItem; onCorrect: () => void }) {
  const { t, i18n } = useLingui();
  return (
    <Stack gap="1" align="flex-start">
      {item.verdict && item.superseded === null && <VerdictBadge verdict={item.verdict} />}
      {item.superseded === null && <ReasonsText reasons={item.reasons} />}
      {item.superseded === 'stored' && (
        <Badge colorPalette="gray" variant="outline" size="md">
          <Trans>Remplacée par une correction</Trans>
        </Badge>
      )}
      {item.superseded === 'queued' && (
        <Badge colorPalette="orange" variant="outline" size="md">
          <Trans>Correction en attente d’envoi</Trans>
        </Badge>
      )}
      {item.correctionReason && (
        <Text fontSize="sm">
          <Trans>Correction : {i18n._(CORRECTION_REASON_LABELS[item.correctionReason])}</Trans>
        </Text>
      )}
      {correctable(item) && (
        <Stack gap="1" align="flex-start">
          <Text fontSize="sm" color={item.verdict === 'implausible' ? 'fg.error' : 'fg.muted'}>
            <Trans>
              Corrigeable jusqu’au <bdi>{formatDateTime(item.correctableUntil)}</bdi>
            </Trans>
          </Text>
          <Button
            size="sm"
            minHeight="11"
            variant="outline"
            colorPalette="brand"
            aria-label={t`Corriger le relevé ${item.kodeId}`}
            onClick={onCorrect}
          >
            <Trans>Corriger</Trans>
          </Button>
        </Stack>
      )}
    </Stack>
  );
}

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

export function HistoryTable() {
  const { t, i18n } = useLingui();
  const locale = useLocale();
  const online = useOnline();
  const [limit, setLimit] = useState(HISTORY_PAGE_SIZE);
  const page = useHistory(limit);
  const [correcting, setCorrecting] = useState<HistoryItem | null>(null);
  const [correctingStored, setCorrectingStored] = useState<HistoryItem | null>(null);
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
                <Trans>Vérification</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader textAlign="start">
                <Trans>Statut</Trans>
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {page.items.map((item) => (
              <Table.Row
                key={item.id}
                data-status={item.status}
                data-verdict={item.verdict ?? undefined}
                data-superseded={item.superseded ?? undefined}
              >
                {/* The identifier reads left to right; the cell keeps the page's side, under its header. */}
                <Table.Cell textAlign="start" fontFamily="mono" whiteSpace="nowrap">
                  <span dir="ltr">{item.kodeId}</span>
                </Table.Cell>
                <Table.Cell
                  textAlign="end"
                  whiteSpace="nowrap"
                  // A replaced reading stays readable, struck through: it no longer counts.
                  textDecoration={item.superseded ? 'line-through' : undefined}
                  color={item.superseded ? 'fg.muted' : undefined}
                >
                  <span dir="ltr">{formatKm(item.odometer, locale)}</span>
                </Table.Cell>
                <Table.Cell textAlign="start">
                  {item.repairType ? localized({ ...item.repairType }, 'name', locale) : '—'}
                </Table.Cell>
                <Table.Cell textAlign="start" whiteSpace="nowrap">
                  <span dir="ltr">{formatDateTime(item.recordedAt)}</span>
                </Table.Cell>
                {/* Narrow enough that the status stays in view on a tablet held upright: long reasons wrap. */}
                <Table.Cell textAlign="start" minWidth="44" maxWidth="60" whiteSpace="normal">
                  <Verification item={item} onCorrect={() => setCorrectingStored(item)} />
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
