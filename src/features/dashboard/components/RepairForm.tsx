/**
 * Tab 1, Add repair (docs/PRODUCT.md#add-repair-tab, docs/PRODUCT.md#odometer-plausibility, docs/ARCHITECTURE.md#the-offline-model-in-practice):
 * look the vehicle up, fill in type and reading, confirm, Insert. Insert writes to the tablet's
 * outbox first, so it works without a connection. A view: the flow (lookup, questions, send) is
 * `useEntryForm`'s, its steps those of entry-form/flow.ts.
 */
import { Box, Button, chakra, Flex, Grid, SimpleGrid } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { ChunkErrorBoundary } from '../../../components/ui/chunk-error-boundary';
import { retryableLazy } from '../../../components/ui/retryable-lazy';
import { watchOffline } from '../../../lib/online';
import { LookupButtons } from '../entry-form/LookupButtons';
import { useEntryForm } from '../entry-form/useEntryForm';
import { VehicleSummary } from '../entry-form/VehicleSummary';
import { useRepairTypes } from '../data/repair-types';
import { PhotoField, PhotoFieldSpace } from '../photo';
import { prefetchScannerWhereNeeded, ScanDialog, VinCheck } from '../scan';
import { OdometerConfirmDialog } from './OdometerConfirmDialog';
import type { OfflineVehicleNoticeProps } from './OfflineVehicleNotice';
import { ConsentField, KodeIdField, OdometerField, RepairTypeField } from './RepairFields';

/** Said of a vehicle looked up offline; its code loads then (from the service worker). */
const OfflineVehicleNotice = retryableLazy<OfflineVehicleNoticeProps>(() => import('./OfflineVehicleNotice'));

/** The timeline's chart and list load once a vehicle is found (docs/PRODUCT.md#vehicle-timeline). */
const VehicleTimeline = retryableLazy(() => import('./VehicleTimeline'));

/** The bottom left corner the toasts take (toaster-view.tsx): a two-line toast and the edge of one behind it. */
const TOAST_CORNER_HEIGHT = '6rem';

/**
 * A column of the landscape layout. In one column (below 1024 px) it steps aside (display: contents):
 * its fields join the grid, in the entry's order (their `order`).
 */
function EntryColumn({ side, children }: { side: 'left' | 'right'; children: ReactNode }) {
  // The right column is the second in left to right, the first in right to left: physical either way.
  const column = side === 'left' ? { ltr: '1', rtl: '2' } : { ltr: '2', rtl: '1' };
  return (
    <Flex
      direction="column"
      display={{ base: 'contents', lg: 'flex' }}
      gap="4"
      gridRow={{ lg: '1' }}
      gridColumn={{ lg: column.ltr }}
      _rtl={{ gridColumn: { lg: column.rtl } }}
      // The left column is as tall as the right one (Insert at its foot), never taller (size contained:
      // its content does not size the row), and leaves its foot to the toasts.
      {...(side === 'left' && { alignSelf: 'stretch', contain: { lg: 'size' }, pb: { lg: TOAST_CORNER_HEIGHT } })}
      data-entry-column={side}
    >
      {children}
    </Flex>
  );
}

export function RepairForm() {
  const { t } = useLingui();
  const types = useRepairTypes();
  const formRef = useRef<HTMLFormElement>(null);
  const entry = useEntryForm(formRef);
  const { form, found, question } = entry;
  // The same handlers and buttons at every render: a keystroke re-renders the field typed in, not every
  // field of the form (RepairFields.tsx memoises them).
  const { set, leave, pick } = form;
  const { answer, find, openScanner } = entry;
  const on = useMemo(
    () => ({
      kodeIdChange: (value: string) => set('kode_id', value),
      kodeIdLeft: () => leave('kode_id'),
      repairTypeChange: (value: string) => pick('repair_type_id', value),
      odometerChange: (value: string) => set('odometer', value),
      odometerLeft: () => leave('odometer'),
      consentChange: (checked: boolean) => pick('consented', checked),
      readingConfirmed: () => answer(true),
      readingCancelled: () => answer(false),
    }),
    [set, leave, pick, answer],
  );
  const lookupButtons = useMemo(
    () => <LookupButtons finding={entry.finding} onFind={find} onScan={openScanner} />,
    [entry.finding, find, openScanner],
  );

  // The scanner's WebAssembly, fetched ahead where the browser will need it (scan/prefetch.ts).
  useEffect(prefetchScannerWhereNeeded, []);

  // Offline, a lookup may need the offline notice: have its code ready. Watched, not read: the form
  // does not draw the connection, and reading it would render the whole form again, in one blocking
  // task, right after an offline start's hydration.
  useEffect(() => watchOffline(OfflineVehicleNotice.preload), []);

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
      p={{ base: '4', md: '5', lg: '4' }}
      aria-label={t`Nouvelle saisie`}
    >
      {/* One column on a portrait tablet, in the order of the entry; from 1024 px wide two, so the whole
        entry fits one landscape screen (docs/PRODUCT.md#add-repair-tab): the identifier, the VIN check
        and the vehicle's readings on the physical left, the vehicle and what the mechanic fills in on
        the right, Insert at its foot. Physical in both directions, as the toasts' corner is
        (toaster-view.tsx): the left column keeps its foot free for them. */}
      <Grid
        templateColumns={{ base: '1fr', lg: 'minmax(0, 1fr) minmax(0, 1fr)' }}
        columnGap="6"
        rowGap="4"
        alignItems="start"
      >
        <EntryColumn side="left">
          <Box order={1}>
            <KodeIdField
              value={form.values.kode_id}
              error={form.error('kode_id')}
              onChange={on.kodeIdChange}
              onBlur={on.kodeIdLeft}
              onEnter={find}
              action={lookupButtons}
            />
          </Box>

          {entry.offlineNotice && (
            <Box order={2}>
              <ChunkErrorBoundary reset={OfflineVehicleNotice.reset}>
                <OfflineVehicleNotice {...entry.offlineNotice} />
              </ChunkErrorBoundary>
            </Box>
          )}

          {found && (
            <Box order={4}>
              <ChunkErrorBoundary reset={VinCheck.reset} resetKey={found.kode_id}>
                <VinCheck
                  value={entry.vin}
                  vehicleVin={found.vin}
                  onChange={(vin, mismatch) => entry.changeVin(found.kode_id, vin, mismatch)}
                  question={question?.type === 'vin' ? question.vin : null}
                  onAnswer={entry.answer}
                />
              </ChunkErrorBoundary>
            </Box>
          )}

          {found && (
            // On a landscape tablet the readings take the height left above the toasts' corner, their list
            // scrolling inside it (VehicleTimeline).
            <Box order={5} display={{ lg: 'flex' }} flexDirection="column" flex={{ lg: '0 1 auto' }} minHeight="0">
              <ChunkErrorBoundary reset={VehicleTimeline.reset} resetKey={found.kode_id}>
                <VehicleTimeline kodeId={found.kode_id} />
              </ChunkErrorBoundary>
            </Box>
          )}
        </EntryColumn>

        <EntryColumn side="right">
          <Box order={3}>
            <VehicleSummary vehicle={found} />
          </Box>

          <SimpleGrid columns={2} gap="4" order={6}>
            <RepairTypeField
              value={form.values.repair_type_id}
              types={types}
              error={form.error('repair_type_id')}
              onChange={on.repairTypeChange}
            />
            <OdometerField
              value={form.values.odometer}
              error={form.error('odometer')}
              onChange={on.odometerChange}
              onBlur={on.odometerLeft}
            />
          </SimpleGrid>

          <Box order={7}>
            <ChunkErrorBoundary reset={PhotoField.reset} loading={<PhotoFieldSpace />}>
              <PhotoField controls={entry.photo} />
            </ChunkErrorBoundary>
          </Box>

          <Box order={8}>
            <ConsentField checked={form.values.consented} error={form.error('consented')} onChange={on.consentChange} />
          </Box>

          <Button
            type="submit"
            order={9}
            size="lg"
            colorPalette="brand"
            // Toasts stack at the bottom left (docs/PRODUCT.md#business-constants): Insert stays on the
            // physical right in both directions so a toast never sits on it: a physical left margin,
            // which pushes it right in the one-column grid and in the right column alike.
            css={{ '@media (min-width: 30em)': { marginLeft: 'auto' } }}
            minWidth="40"
            minHeight="12"
            loading={form.submitting}
            loadingText={t`Enregistrement…`}
          >
            <Trans>Insérer</Trans>
          </Button>
        </EntryColumn>
      </Grid>

      <ScanDialog open={entry.scanning} target="kode_id" onRead={entry.scanned} onClose={entry.closeScanner} />
      <OdometerConfirmDialog
        question={question?.type === 'reading' ? question.reading : null}
        photo={entry.photo}
        onConfirm={on.readingConfirmed}
        onCancel={on.readingCancelled}
      />
    </chakra.form>
  );
}
