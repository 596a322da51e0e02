/**
 * Correcting an entry the server refused: the values as entered, the server's reason, the same
 * rules as the form. It goes again under a new Idempotency-Key with its original date.
 */
import { OPERATION_FAILED } from '../../../lib/error-messages';
import { notifyEntrySaved } from '../notify-saved';
import { Alert, Button, CloseButton, Dialog, Portal, Stack } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { notify } from '../../../components/ui/toaster';
import type { HistoryItem } from '../../../lib/history';
import { useRepairTypes } from '../../../lib/repair-types';
import { resubmitRepair } from '../../../lib/sync';
import { useUnsavedInput } from '../../../lib/unsaved';
import { toRepairInput, validateRepairForm, type RepairField, type RepairFormValues } from '../validation';
import { ConsentField, KodeIdField, OdometerField, RepairTypeField } from './RepairFields';

function initialValues(item: HistoryItem): RepairFormValues {
  return {
    kodeId: item.entry?.kode_id ?? item.kodeId,
    odometer: String(item.entry?.odometer ?? item.odometer),
    repairTypeId: item.entry?.repair_type_id ?? '',
    // The mechanic confirms the corrected values again.
    consented: false,
  };
}

export function CorrectEntryDialog({ item, onClose }: { item: HistoryItem | null; onClose: () => void }) {
  return (
    <Dialog.Root
      open={item !== null}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      placement="center"
      size="lg"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          {item && <CorrectEntryContent key={item.id} item={item} onClose={onClose} />}
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function CorrectEntryContent({ item, onClose }: { item: HistoryItem; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const types = useRepairTypes();
  const [values, setValues] = useState<RepairFormValues>(() => initialValues(item));
  const [submitted, setSubmitted] = useState(false);
  const [touched, setTouched] = useState<Partial<Record<RepairField, boolean>>>({});
  const [sending, setSending] = useState(false);
  // While the correction is open, an update must not reload the page under it.
  useUnsavedInput(true);
  const errors = validateRepairForm(values);
  const shown = (field: RepairField) => (touched[field] || submitted ? errors[field] : undefined);
  const change = <K extends keyof RepairFormValues>(key: K, value: RepairFormValues[K], field: RepairField) => {
    setValues((current) => ({ ...current, [key]: value }));
    setTouched((current) => ({ ...current, [field]: true }));
  };

  async function resend(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(validateRepairForm(values)).length > 0 || sending) return;
    setSending(true);
    try {
      // The vehicle details go along only while the identifier is unchanged.
      const entry = item.entry?.kode_id === values.kodeId ? item.entry : null;
      const details = entry && {
        vin: entry.vin ?? null,
        brand: entry.brand ?? null,
        model: entry.model ?? null,
        year: typeof entry.year === 'number' ? entry.year : null,
      };
      const outcome = await resubmitRepair(item.id, toRepairInput(values, details));
      if (!outcome) {
        onClose();
        return;
      }
      if (outcome.kind === 'rejected') {
        notify.error(outcome.entry.lastError?.message || i18n._(OPERATION_FAILED));
      } else {
        notifyEntrySaved(i18n, outcome.kind);
      }
      onClose();
    } catch {
      notify.error(i18n._(OPERATION_FAILED));
    } finally {
      setSending(false);
    }
  }

  return (
    <Dialog.Content asChild>
      <form noValidate onSubmit={resend}>
        <Dialog.Header>
          <Dialog.Title>
            <Trans>Corriger la saisie</Trans>
          </Dialog.Title>
        </Dialog.Header>
        <Dialog.Body>
          <Stack gap="4">
            {item.lastError && (
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Title>{item.lastError.message}</Alert.Title>
              </Alert.Root>
            )}
            <KodeIdField
              value={values.kodeId}
              error={shown('kode_id')}
              onChange={(value) => change('kodeId', value, 'kode_id')}
            />
            <RepairTypeField
              value={values.repairTypeId}
              types={types}
              error={shown('repair_type_id')}
              onChange={(value) => change('repairTypeId', value, 'repair_type_id')}
            />
            <OdometerField
              value={values.odometer}
              error={shown('odometer')}
              onChange={(value) => change('odometer', value, 'odometer')}
            />
            <ConsentField
              checked={values.consented}
              error={shown('consented')}
              onChange={(checked) => change('consented', checked, 'consented')}
            />
          </Stack>
        </Dialog.Body>
        <Dialog.Footer flexWrap="wrap">
          <Button type="button" variant="outline" size="lg" onClick={onClose}>
            <Trans>Annuler</Trans>
          </Button>
          <Button type="submit" size="lg" colorPalette="brand" loading={sending}>
            <Trans>Renvoyer</Trans>
          </Button>
        </Dialog.Footer>
        <Dialog.CloseTrigger asChild>
          <CloseButton size="sm" aria-label={t`Fermer`} />
        </Dialog.CloseTrigger>
      </form>
    </Dialog.Content>
  );
}
