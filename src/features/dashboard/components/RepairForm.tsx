/**
 * Tab 1, Add repair (docs/PRODUCT.md#add-repair-tab, docs/PRODUCT.md#odometer-plausibility, docs/ARCHITECTURE.md#the-offline-model-in-practice):
 * look the vehicle up, fill in type and reading, confirm, Insert. Insert writes to the tablet's
 * outbox first, so it works without a connection. A view: the flow (lookup, questions, send) is
 * `useEntryForm`'s, its steps those of entry-form/flow.ts.
 */
import { Button, chakra, SimpleGrid, Stack } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { ChunkErrorBoundary } from '../../../components/ui/chunk-error-boundary';
import { retryableLazy } from '../../../components/ui/retryable-lazy';
import { useOnline } from '../../../lib/online';
import { LookupButtons } from '../entry-form/LookupButtons';
import { useEntryForm } from '../entry-form/useEntryForm';
import { VehicleSummary } from '../entry-form/VehicleSummary';
import { useRepairTypes } from '../data/repair-types';
import { PhotoField, PhotoFieldSpace } from '../photo';
import { ScanDialog, VinCheck } from '../scan';
import { OdometerConfirmDialog } from './OdometerConfirmDialog';
import type { OfflineVehicleNoticeProps } from './OfflineVehicleNotice';
import { ConsentField, KodeIdField, OdometerField, RepairTypeField } from './RepairFields';

/** Said of a vehicle looked up offline; its code loads then (from the service worker). */
const OfflineVehicleNotice = retryableLazy<OfflineVehicleNoticeProps>(() => import('./OfflineVehicleNotice'));

/** The timeline's chart and list load once a vehicle is found (docs/PRODUCT.md#vehicle-timeline). */
const VehicleTimeline = retryableLazy(() => import('./VehicleTimeline'));

export function RepairForm() {
  const { t } = useLingui();
  const types = useRepairTypes();
  const formRef = useRef<HTMLFormElement>(null);
  const entry = useEntryForm(formRef);
  const { form, found, question } = entry;

  // Offline, a lookup may need the offline notice: have its code ready.
  const online = useOnline();
  useEffect(() => {
    if (!online) OfflineVehicleNotice.preload();
  }, [online]);

  return (
    <chakra.form
      ref={formRef}
      // As every form of the app (components/ui/app-form.tsx): a native submission, before the
      // prerendered form is hydrated, does nothing, and what was typed before then becomes the form's.
      method="dialog"
      noValidate
      onSubmit={entry.submit}
      bg="bg"
      borderWidth="1px"
      rounded="l3"
      p={{ base: '4', md: '6' }}
      aria-label={t`Nouvelle saisie`}
    >
      <Stack gap="5">
        <KodeIdField
          value={form.values.kode_id}
          error={form.error('kode_id')}
          onChange={(value) => form.set('kode_id', value)}
          onBlur={() => form.leave('kode_id')}
          onEnter={entry.find}
          action={<LookupButtons finding={entry.finding} onFind={entry.find} onScan={entry.openScanner} />}
        />

        {entry.offlineNotice && (
          <ChunkErrorBoundary reset={OfflineVehicleNotice.reset}>
            <OfflineVehicleNotice {...entry.offlineNotice} />
          </ChunkErrorBoundary>
        )}

        <VehicleSummary vehicle={found} />

        {found && (
          <ChunkErrorBoundary reset={VinCheck.reset} resetKey={found.kode_id}>
            <VinCheck
              value={entry.vin}
              vehicleVin={found.vin}
              onChange={(vin, mismatch) => entry.changeVin(found.kode_id, vin, mismatch)}
              question={question?.type === 'vin' ? question.vin : null}
              onAnswer={entry.answer}
            />
          </ChunkErrorBoundary>
        )}

        {found && (
          <ChunkErrorBoundary reset={VehicleTimeline.reset} resetKey={found.kode_id}>
            <VehicleTimeline kodeId={found.kode_id} />
          </ChunkErrorBoundary>
        )}

        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          <RepairTypeField
            value={form.values.repair_type_id}
            types={types}
            error={form.error('repair_type_id')}
            onChange={(value) => form.pick('repair_type_id', value)}
          />
          <OdometerField
            value={form.values.odometer}
            error={form.error('odometer')}
            onChange={(value) => form.set('odometer', value)}
            onBlur={() => form.leave('odometer')}
          />
        </SimpleGrid>

        <ChunkErrorBoundary reset={PhotoField.reset} loading={<PhotoFieldSpace />}>
          <PhotoField controls={entry.photo} />
        </ChunkErrorBoundary>

        <ConsentField
          checked={form.values.consented}
          error={form.error('consented')}
          onChange={(checked) => form.pick('consented', checked)}
        />

        <Button
          type="submit"
          size="lg"
          colorPalette="brand"
          // Toasts stack at the bottom left (docs/PRODUCT.md#business-constants) and pause while touched: keep Insert on the
          // physical right in both directions so a toast never sits on it.
          alignSelf={{ base: 'stretch', sm: 'flex-end' }}
          _rtl={{ alignSelf: { base: 'stretch', sm: 'flex-start' } }}
          minWidth="40"
          minHeight="12"
          loading={form.submitting}
          loadingText={t`Enregistrement…`}
        >
          <Trans>Insérer</Trans>
        </Button>
      </Stack>

      <ScanDialog open={entry.scanning} target="kode_id" onRead={entry.scanned} onClose={entry.closeScanner} />
      <OdometerConfirmDialog
        question={question?.type === 'reading' ? question.reading : null}
        photo={entry.photo}
        onConfirm={() => entry.answer(true)}
        onCancel={() => entry.answer(false)}
      />
    </chakra.form>
  );
}
