/**
 * What the history shows of one entry, shared by its two layouts (docs/PRODUCT.md#history-tab): the
 * table on a wide screen, the cards on a tablet held upright.
 */
import { Stack, Text, type SystemContext, type SystemStyleObject } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { CORRECTION_REASONS, type RepairType } from '../../../../contract';
import { EntryDifferences } from '../../../components/EntryDifferences';
import { formatDateTime } from '../../../lib/dates';
import { formatKm } from '../../../lib/format';
import { localized } from '../../../lib/localized';
import type { Locale } from '../../../lib/i18n';
import { outboxErrorText } from '../../../lib/entries/words';
import type { EntryStatusLabel } from '../../../lib/entries/words';
import type { EntryConflict, HistoryItem } from '../../../lib/entries/history';
import { PhotoMarkSlot } from '../photo/slot';
import { StaticBadge } from '../../../components/ui/static-badge';
import { staticStyles } from '../../../components/ui/static-styles';
import { CORRECTION_REASON_LABELS, ReasonsText, VerdictBadge } from './VerdictBadge';

/** What the mechanic can do from an entry; the dialogs they open belong to the history. */
export interface EntryActions {
  /** A stored entry, within its correction window. */
  correctStored: (item: HistoryItem) => void;
  /** A refused entry: corrected and sent again. */
  correctRefused: (item: HistoryItem) => void;
  /**
   * A refused entry whose key the server holds with other values: this tablet's values recorded as a
   * correction of the stored repair (docs/ARCHITECTURE.md#the-hand-over-file).
   */
  correctConflict: (item: HistoryItem) => void;
  /** A refused entry: dropped from the tablet, after confirmation. */
  discard: (item: HistoryItem) => void;
}

/**
 * The entry's styles, resolved once (docs/ARCHITECTURE.md#start-up): a page of the history draws 50
 * entries, each with a dozen elements; as Chakra components they took most of a second on a tablet.
 */
// In the order the style props were given to Chakra's Button: the same CSS, the same class.
const SMALL_BUTTON = { minHeight: '11' };
const button = (system: SystemContext, variant: 'outline' | 'ghost', palette: string, own: SystemStyleObject) => [
  system.getRecipeFn('button')({ size: 'sm', variant }),
  own,
  { colorPalette: palette },
];
const useEntryClasses = staticStyles({
  column: { display: 'flex', flexDirection: 'column', gap: '1', alignItems: 'flex-start' },
  refused: { display: 'flex', flexDirection: 'column', gap: '2', alignItems: 'flex-start' },
  line: { display: 'flex', flexDirection: 'row', gap: '1', alignItems: 'center', flexWrap: 'wrap' },
  buttons: { display: 'flex', flexDirection: 'row', gap: '2', alignItems: 'center', flexWrap: 'wrap' },
  note: { fontSize: 'sm' },
  mutedText: { fontSize: 'sm', color: 'fg.muted' },
  error: { fontSize: 'sm', color: 'fg.error', overflowWrap: 'anywhere' },
  deadlineError: { fontSize: 'sm', color: 'fg.error' },
  reading: {},
  readingReplaced: { textDecoration: 'line-through', color: 'fg.muted' },
  correct: (system) => button(system, 'outline', 'brand', SMALL_BUTTON),
  discard: (system) => button(system, 'ghost', 'red', SMALL_BUTTON),
  // The table's status column is narrow: the label wraps rather than leave the table.
  asCorrection: (system) =>
    button(system, 'outline', 'brand', {
      ...SMALL_BUTTON,
      height: 'auto',
      py: '2',
      whiteSpace: 'normal',
      flexShrink: 1,
      maxWidth: 'full',
      textAlign: 'start',
    }),
});

/** A button of the entry's: Chakra's recipe, its classes resolved once. */
function EntryButton({
  className,
  label,
  onClick,
  children,
}: {
  className: string;
  label: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className={`chakra-button ${className}`} aria-label={label} onClick={onClick}>
      {children}
    </button>
  );
}

/**
 * The status the mechanic reads. 'sending' is the sender's claim on an entry for the time of one try
 * (docs/ARCHITECTURE.md#the-offline-model-in-practice). While the browser reports no network the
 * sender still tries, at Insert and then at its backoff, in case the network is back unannounced: each
 * try failing at once, "Envoi…" would flash between two "En attente". Offline the entry waits for the
 * network, whatever the sender is trying.
 */
export function shownStatus(status: EntryStatusLabel, online: boolean): EntryStatusLabel {
  return status === 'sending' && !online ? 'pending' : status;
}

/** The attributes an entry's element carries in either layout (tests and styles read them). */
export function entryAttributes(item: HistoryItem, status: EntryStatusLabel) {
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

/** Whether the verification has anything to say: queued entries have no verdict yet (unless in conflict). */
export function hasVerification(item: HistoryItem): boolean {
  return (
    item.verdict !== null ||
    item.superseded !== null ||
    item.correctionReason !== null ||
    item.otherVersionHere ||
    item.conflict !== null ||
    correctable(item)
  );
}

/** Whether the conflict can be settled by correcting the stored repair with this tablet's values. */
function conflictCorrectable(conflict: EntryConflict): boolean {
  return conflict.correctableUntil !== null && Date.now() < Date.parse(conflict.correctableUntil);
}

/**
 * Both versions of an entry the server holds under its key with other values: this tablet's and the
 * server's, field by field (docs/ARCHITECTURE.md#the-hand-over-file).
 */
function ConflictVersions({ item, conflict }: { item: HistoryItem; conflict: EntryConflict }) {
  const { t, i18n } = useLingui();
  const repairTypes: RepairType[] = [
    ...(item.repairType ? [item.repairType] : []),
    ...(conflict.stored ? [conflict.stored.repair_type] : []),
  ];
  return (
    <Stack gap="1" align="stretch" data-conflict="">
      <Text fontSize="sm" fontWeight="semibold" color="fg.error">
        <Trans>Le serveur a enregistré une autre version de cette saisie</Trans>
      </Text>
      {conflict.stored ? (
        <EntryDifferences
          differences={conflict.differences}
          thereLabel={t`Sur le serveur`}
          names={{
            repairTypes,
            correctionReason: (reason) => {
              const known = CORRECTION_REASONS.find((candidate) => candidate === reason);
              return known ? i18n._(CORRECTION_REASON_LABELS[known]) : reason;
            },
          }}
        />
      ) : (
        <Text fontSize="sm" color="fg.muted">
          <Trans>Sa version s’affichera à la prochaine actualisation de l’historique.</Trans>
        </Text>
      )}
    </Stack>
  );
}

export function RepairTypeName({ item, locale }: { item: HistoryItem; locale: Locale }) {
  return <>{item.repairType ? localized({ ...item.repairType }, 'name', locale) : '—'}</>;
}

/** The reading, left to right in every language; a replaced one struck through, as it no longer counts. */
export function OdometerText({ item, locale }: { item: HistoryItem; locale: Locale }) {
  const classes = useEntryClasses();
  return (
    <bdi className={`chakra-text ${item.superseded ? classes.readingReplaced : classes.reading}`}>
      {formatKm(item.odometer, locale)}
    </bdi>
  );
}

export function RecordedAt({ item }: { item: HistoryItem }) {
  return <span dir="ltr">{formatDateTime(item.recordedAt)}</span>;
}

/** The server's verdict, a correction's state, and until when the entry can be corrected. */
export function Verification({ item, actions }: { item: HistoryItem; actions: EntryActions }) {
  const { t, i18n } = useLingui();
  const classes = useEntryClasses();
  return (
    <div className={classes.column}>
      {item.conflict && <ConflictVersions item={item} conflict={item.conflict} />}
      {item.otherVersionHere && (
        <StaticBadge palette="orange" variant="outline">
          <Trans>Autre version sur cette tablette</Trans>
        </StaticBadge>
      )}
      {item.verdict && item.superseded === null && (
        <div className={classes.line}>
          <VerdictBadge verdict={item.verdict} first={item.correctionReason !== 'odometer_replaced'} />
          {item.photo && <PhotoMarkSlot verdict={item.verdict} />}
        </div>
      )}
      {item.superseded === null && <ReasonsText reasons={item.reasons} />}
      {item.superseded === 'stored' && (
        <StaticBadge palette="gray" variant="outline">
          <Trans>Remplacée par une correction</Trans>
        </StaticBadge>
      )}
      {item.superseded === 'queued' && (
        <StaticBadge palette="orange" variant="outline">
          <Trans>Correction en attente d’envoi</Trans>
        </StaticBadge>
      )}
      {item.correctionReason && (
        <p className={`chakra-text ${classes.note}`}>
          <Trans>Correction : {i18n._(CORRECTION_REASON_LABELS[item.correctionReason])}</Trans>
        </p>
      )}
      {correctable(item) && (
        <div className={classes.column}>
          <p className={`chakra-text ${item.verdict === 'implausible' ? classes.deadlineError : classes.mutedText}`}>
            <Trans>
              Corrigeable jusqu’au <bdi>{formatDateTime(item.correctableUntil)}</bdi>
            </Trans>
          </p>
          <EntryButton
            className={classes.correct}
            label={t`Corriger le relevé ${item.kodeId}`}
            onClick={() => actions.correctStored(item)}
          >
            <Trans>Corriger</Trans>
          </EntryButton>
        </div>
      )}
    </div>
  );
}

/**
 * A refused entry: the reason, and the ways out of the outbox. Refused for a conflict, it is not sent
 * again as it is (the server would refuse its key once more): recorded as a correction of the stored
 * repair, or discarded to keep the server's version.
 */
export function RefusedEntry({ item, actions }: { item: HistoryItem; actions: EntryActions }) {
  const { t, i18n } = useLingui();
  const classes = useEntryClasses();
  const conflict = item.conflict;
  return (
    <div className={classes.refused}>
      {item.lastError && <p className={`chakra-text ${classes.error}`}>{outboxErrorText(i18n, item.lastError)}</p>}
      {conflict?.stored && !conflictCorrectable(conflict) && (
        <p className={`chakra-text ${classes.mutedText}`}>
          <Trans>La version du serveur ne peut plus être corrigée : abandonnez celle-ci pour garder la sienne.</Trans>
        </p>
      )}
      <div className={classes.buttons}>
        {conflict === null && (
          <EntryButton
            className={classes.correct}
            label={t`Corriger la saisie ${item.kodeId}`}
            onClick={() => actions.correctRefused(item)}
          >
            <Trans>Corriger</Trans>
          </EntryButton>
        )}
        {conflict?.stored && conflictCorrectable(conflict) && (
          <EntryButton
            className={classes.asCorrection}
            label={t`Enregistrer la saisie ${item.kodeId} comme correction`}
            onClick={() => actions.correctConflict(item)}
          >
            <Trans>Enregistrer comme correction</Trans>
          </EntryButton>
        )}
        <EntryButton
          className={classes.discard}
          label={t`Abandonner la saisie ${item.kodeId}`}
          onClick={() => actions.discard(item)}
        >
          <Trans>Abandonner</Trans>
        </EntryButton>
      </div>
    </div>
  );
}
