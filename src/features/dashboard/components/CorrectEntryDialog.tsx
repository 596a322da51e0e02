/**
 * Correcting an entry the server refused: the values as entered, the server's reason, the same
 * rules as the form. It goes again under a new Idempotency-Key with its original date.
 */
import { OPERATION_FAILED } from '../../../lib/error-messages';
import { outboxErrorText } from '../../../lib/entries/words';
import { notifyEntrySaved } from '../notify-saved';
import { Alert, Dialog, Stack } from '@chakra-ui/react';
import { DialogBody, DialogFrame, FormDialogFooter } from '../../../components/ui/dialog-frame';
import { Trans, useLingui } from '@lingui/react/macro';
import { notify } from '../../../components/ui/toaster';
import type { HistoryItem } from '../../../lib/entries/history';
import { resubmitRepair } from '../../../lib/entries';
import { useUnsavedInput } from '../../../lib/unsaved';
import { toRepairInput, useRepairForm, type RepairFormValues } from '../validation';
import { EntryFields } from './RepairFields';
import { AppForm } from '../../../components/ui/app-form';

function initialValues(item: HistoryItem): RepairFormValues {
  return {
    kode_id: item.entry?.kode_id ?? item.kodeId,
    odometer: String(item.entry?.odometer ?? item.odometer),
    repair_type_id: item.entry?.repair_type_id ?? '',
    // The mechanic confirms the corrected values again.
    consented: false,
  };
}

export function CorrectEntryDialog({ item, onClose }: { item: HistoryItem | null; onClose: () => void }) {
  return (
    <DialogFrame open={item !== null} onClose={onClose} size="lg">
      {item && <CorrectEntryContent key={item.id} item={item} onClose={onClose} />}
    </DialogFrame>
  );
}

function CorrectEntryContent({ item, onClose }: { item: HistoryItem; onClose: () => void }) {
  const { i18n } = useLingui();
  const form = useRepairForm(() => initialValues(item));
  // While the correction is open, an update must not reload the page under it.
  useUnsavedInput(true);

  async function resend(corrected: RepairFormValues) {
    try {
      // The vehicle details go along only while the identifier is unchanged.
      const entry = item.entry?.kode_id === corrected.kode_id ? item.entry : null;
      const details = entry && {
        vin: entry.vin ?? null,
        brand: entry.brand ?? null,
        model: entry.model ?? null,
        year: typeof entry.year === 'number' ? entry.year : null,
      };
      const outcome = await resubmitRepair(item.id, toRepairInput(corrected, details));
      if (!outcome) {
        onClose();
        return;
      }
      if (outcome.kind === 'rejected') {
        notify.error(outcome.entry.lastError?.message || (() => i18n._(OPERATION_FAILED)));
      } else {
        notifyEntrySaved(i18n, outcome.kind);
      }
      onClose();
    } catch {
      notify.error(() => i18n._(OPERATION_FAILED));
    }
  }

  return (
    <Dialog.Content asChild>
      <AppForm onSubmit={(event) => form.submit(event, resend)}>
        <Dialog.Header>
          <Dialog.Title>
            <Trans>Corriger la saisie</Trans>
          </Dialog.Title>
        </Dialog.Header>
        <DialogBody>
          <Stack gap="4">
            {item.lastError && (
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Title>{outboxErrorText(i18n, item.lastError)}</Alert.Title>
              </Alert.Root>
            )}
            <EntryFields form={form} />
          </Stack>
        </DialogBody>
        <FormDialogFooter submitLabel={<Trans>Renvoyer</Trans>} submitting={form.submitting} onCancel={onClose} />
      </AppForm>
    </Dialog.Content>
  );
}
