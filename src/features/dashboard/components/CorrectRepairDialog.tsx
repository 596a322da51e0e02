/**
 * Correcting one of the partner's stored repairs (docs/PRODUCT.md#corrections): never an overwrite. A
 * new entry names the repair it corrects and why, keeps the moment of the reading, and is queued like
 * any entry (offline too); once stored, the original is kept and shown as replaced.
 *
 * Also how an entry refused for a conflict is settled (docs/ARCHITECTURE.md#the-hand-over-file): the
 * server holds other values under its key, so this tablet's values, filled in, correct that stored
 * repair, and the refused entry gives way to the correction.
 */
import { Alert, Dialog, Field, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { CORRECTION_REASONS, type CorrectionReason, type RepairEntry, type RepairRecord } from '../../../../contract';
import { DialogBody, DialogFrame, FormDialogFooter } from '../../../components/ui/dialog-frame';
import { notify } from '../../../components/ui/toaster';
import { formatDateTime } from '../../../lib/dates';
import { formatKm } from '../../../lib/format';
import { useLocale } from '../../../lib/i18n';
import { OPERATION_FAILED } from '../../../lib/error-messages';
import { correctConflictingEntry, submitCorrection, type SubmitOutcome } from '../../../lib/entries';
import { useUnsavedInput } from '../../../lib/unsaved';
import type { HistoryItem } from '../../../lib/entries/history';
import { notifyEntrySaved } from '../notify-saved';
import { cleanOdometer, entryVehicleDetails, toRepairInput, useRepairForm, type RepairFormValues } from '../validation';
import { EntryFields } from './RepairFields';
import { CORRECTION_REASON_LABELS } from './VerdictBadge';

const KM_PER_MILE = 1.609344;

/** The stored repair's values, or (a conflict) this tablet's values for it. */
function initialValues(record: RepairRecord, conflicting: RepairEntry | null): RepairFormValues {
  return {
    kode_id: conflicting?.kode_id ?? record.vehicle.kode_id,
    odometer: String(conflicting?.odometer ?? record.odometer),
    repair_type_id: conflicting?.repair_type_id ?? record.repair_type.id,
    // The mechanic confirms the corrected values again.
    consented: false,
  };
}

/** What the dialog corrects: a stored repair, and, for a conflict, the refused entry it replaces. */
interface Correcting {
  record: RepairRecord;
  until: string;
  conflicting: { key: string; entry: RepairEntry } | null;
}

function correctingOf(item: HistoryItem | null): Correcting | null {
  if (item?.record && item.correctableUntil) {
    return { record: item.record, until: item.correctableUntil, conflicting: null };
  }
  const conflict = item?.conflict;
  if (item?.entry && conflict?.stored && conflict.correctableUntil) {
    return {
      record: conflict.stored,
      until: conflict.correctableUntil,
      conflicting: { key: item.id, entry: item.entry },
    };
  }
  return null;
}

export function CorrectRepairDialog({ item, onClose }: { item: HistoryItem | null; onClose: () => void }) {
  const correcting = correctingOf(item);
  return (
    <DialogFrame open={correcting !== null} onClose={onClose} size="lg">
      {correcting && <CorrectRepairContent key={correcting.record.id} {...correcting} onClose={onClose} />}
    </DialogFrame>
  );
}

function CorrectRepairContent(props: Correcting & { onClose: () => void }) {
  const { record, conflicting, onClose } = props;
  const { t, i18n } = useLingui();
  const locale = useLocale();
  const form = useRepairForm(() => initialValues(record, conflicting?.entry ?? null));
  const [reason, setReason] = useState<CorrectionReason | null>(null);
  // Asked for once Save is pressed without one, as the form's own fields are.
  const [reasonAsked, setReasonAsked] = useState(false);
  const reasonMissing = reasonAsked && reason === null;
  useUnsavedInput(true);

  function chooseReason(next: CorrectionReason) {
    setReason(next);
    // Miles read as km: the km the odometer meant, which the mechanic can still adjust.
    if (next === 'miles_as_km') form.set('odometer', cleanOdometer(String(Math.round(record.odometer * KM_PER_MILE))));
    // The vehicle changes only when the vehicle was wrong.
    if (next !== 'wrong_vehicle') form.set('kode_id', record.vehicle.kode_id);
  }

  async function send(corrected: RepairFormValues) {
    if (reason === null) return;
    try {
      const sameVehicle = corrected.kode_id === record.vehicle.kode_id;
      const details = sameVehicle ? entryVehicleDetails(record.vehicle) : null;
      const input = { ...toRepairInput(corrected, details), corrects: record.id, correction_reason: reason };
      const outcome: SubmitOutcome | null = conflicting
        ? await correctConflictingEntry(conflicting.key, input, record.recorded_at)
        : await submitCorrection(input, record.recorded_at);
      if (!outcome) {
        // The refused entry is gone meanwhile (discarded, or settled on another tab).
        onClose();
        return;
      }
      if (outcome.kind === 'rejected')
        notify.error(outcome.entry.lastError?.message || (() => i18n._(OPERATION_FAILED)));
      else notifyEntrySaved(i18n, outcome.kind);
      onClose();
    } catch {
      notify.error(() => i18n._(OPERATION_FAILED));
    }
  }

  const original = formatKm(record.odometer, locale);
  return (
    <Dialog.Content asChild>
      <form
        // As AppForm (components/ui/app-form.tsx), which cannot stand as the dialog's content element.
        method="dialog"
        noValidate
        onSubmit={(event) => {
          if (reason === null) {
            event.preventDefault();
            setReasonAsked(true);
            event.currentTarget.querySelector<HTMLSelectElement>('select[name="correction_reason"]')?.focus();
            return;
          }
          void form.submit(event, send);
        }}
      >
        <Dialog.Header>
          <Dialog.Title>
            <Trans>Corriger la saisie {record.vehicle.kode_id}</Trans>
          </Dialog.Title>
        </Dialog.Header>
        <DialogBody>
          <Stack gap="4">
            <Alert.Root status="info">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>
                  <Trans>La saisie d’origine est conservée et marquée comme remplacée par la correction.</Trans>
                </Alert.Title>
                <Alert.Description>
                  <Trans>
                    Relevé de <bdi>{original}</bdi> du <bdi>{formatDateTime(record.recorded_at)}</bdi>, corrigeable
                    jusqu’au <bdi>{formatDateTime(props.until)}</bdi>.
                  </Trans>
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
            <Field.Root invalid={reasonMissing} required>
              <Field.Label>
                <Trans>Motif de la correction</Trans>
              </Field.Label>
              <NativeSelect.Root size="lg">
                <NativeSelect.Field
                  name="correction_reason"
                  value={reason ?? ''}
                  onChange={(event) => {
                    const next = CORRECTION_REASONS.find((candidate) => candidate === event.target.value);
                    if (next) chooseReason(next);
                  }}
                >
                  <option value="">{t`Choisir un motif`}</option>
                  {CORRECTION_REASONS.map((candidate) => (
                    <option key={candidate} value={candidate}>
                      {i18n._(CORRECTION_REASON_LABELS[candidate])}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              {reasonMissing && <Field.ErrorText>{t`Choisissez le motif de la correction`}</Field.ErrorText>}
            </Field.Root>
            <EntryFields
              form={form}
              kodeIdReadOnly={reason !== 'wrong_vehicle'}
              odometerNote={
                reason === 'odometer_replaced' && (
                  <Text fontSize="sm" color="fg.muted" mt="1">
                    <Trans>Saisissez ce qu’affiche le nouveau compteur : les relevés repartent de cette valeur.</Trans>
                  </Text>
                )
              }
            />
          </Stack>
        </DialogBody>
        <FormDialogFooter
          submitLabel={<Trans>Enregistrer la correction</Trans>}
          submitting={form.submitting}
          onCancel={onClose}
        />
      </form>
    </Dialog.Content>
  );
}
