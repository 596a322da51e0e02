/**
 * What the history shows of one entry, shared by its two layouts (docs/PRODUCT.md#history-tab): the
 * table on a wide screen, the cards on a tablet held upright.
 */
import { Badge, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatDateTime } from '../../../lib/dates';
import { formatKm } from '../../../lib/format';
import { localized } from '../../../lib/localized';
import type { Locale } from '../../../lib/i18n';
import type { HistoryItem, HistoryStatus } from '../data/history';
import { CORRECTION_REASON_LABELS, ReasonsText, VerdictBadge } from './VerdictBadge';

/** What the mechanic can do from an entry; the dialogs they open belong to the history. */
export interface EntryActions {
  /** A stored entry, within its correction window. */
  correctStored: (item: HistoryItem) => void;
  /** A refused entry: corrected and sent again. */
  correctRefused: (item: HistoryItem) => void;
  /** A refused entry: dropped from the tablet, after confirmation. */
  discard: (item: HistoryItem) => void;
}

/**
 * The status the mechanic reads. 'sending' is the sender's claim on an entry for the time of one try
 * (docs/ARCHITECTURE.md#the-offline-model-in-practice). While the browser reports no network the
 * sender still tries, at Insert and then at its backoff, in case the network is back unannounced: each
 * try failing at once, "Envoi…" would flash between two "En attente". Offline the entry waits for the
 * network, whatever the sender is trying.
 */
export function shownStatus(status: HistoryStatus, online: boolean): HistoryStatus {
  return status === 'sending' && !online ? 'pending' : status;
}

/** The attributes an entry's element carries in either layout (tests and styles read them). */
export function entryAttributes(item: HistoryItem, status: HistoryStatus) {
  return {
    'data-status': status,
    'data-verdict': item.verdict ?? undefined,
    'data-superseded': item.superseded ?? undefined,
  };
}

/** Whether a stored entry can still be corrected (the server has the last word when it arrives). */
function correctable(item: HistoryItem): item is HistoryItem & { correctableUntil: string } {
  return item.correctableUntil !== null && Date.now() < Date.parse(item.correctableUntil);
}

/** Whether the verification has anything to say: queued entries have no verdict yet. */
export function hasVerification(item: HistoryItem): boolean {
  return item.verdict !== null || item.superseded !== null || item.correctionReason !== null || correctable(item);
}

export function RepairTypeName({ item, locale }: { item: HistoryItem; locale: Locale }) {
  return <>{item.repairType ? localized({ ...item.repairType }, 'name', locale) : '—'}</>;
}

/** The reading, left to right in every language; a replaced one struck through, as it no longer counts. */
export function OdometerText({ item, locale }: { item: HistoryItem; locale: Locale }) {
  return (
    <Text
      as="span"
      dir="ltr"
      textDecoration={item.superseded ? 'line-through' : undefined}
      color={item.superseded ? 'fg.muted' : undefined}
    >
      {formatKm(item.odometer, locale)}
    </Text>
  );
}

export function RecordedAt({ item }: { item: HistoryItem }) {
  return <span dir="ltr">{formatDateTime(item.recordedAt)}</span>;
}

/** The server's verdict, a correction's state, and until when the entry can be corrected. */
export function Verification({ item, actions }: { item: HistoryItem; actions: EntryActions }) {
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
            onClick={() => actions.correctStored(item)}
          >
            <Trans>Corriger</Trans>
          </Button>
        </Stack>
      )}
    </Stack>
  );
}

/** A refused entry: the server's reason, and the two ways out of the outbox. */
export function RefusedEntry({ item, actions }: { item: HistoryItem; actions: EntryActions }) {
  const { t } = useLingui();
  return (
    <Stack gap="2" align="flex-start">
      {item.lastError?.message && (
        <Text fontSize="sm" color="fg.error" overflowWrap="anywhere">
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
          onClick={() => actions.correctRefused(item)}
        >
          <Trans>Corriger</Trans>
        </Button>
        <Button
          size="sm"
          minHeight="11"
          variant="ghost"
          colorPalette="red"
          aria-label={t`Abandonner la saisie ${item.kodeId}`}
          onClick={() => actions.discard(item)}
        >
          <Trans>Abandonner</Trans>
        </Button>
      </HStack>
    </Stack>
  );
}
