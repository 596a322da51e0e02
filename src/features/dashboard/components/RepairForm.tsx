/**
 * Tab 1, Add repair (docs/PRODUCT.md#add-repair-tab, docs/PRODUCT.md#odometer-plausibility, docs/ARCHITECTURE.md#the-offline-model-in-practice):
 * look the vehicle up, fill in type and reading, confirm, Insert. Insert writes to the tablet's
 * outbox first, so it works without a connection.
 */
import { OPERATION_FAILED } from '../../../lib/error-messages';
import { notifyEntrySaved } from '../notify-saved';
import { Button, chakra, Field, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import type { Vehicle } from '../../../../contract';
import { ChunkErrorBoundary, notifyChunkFailure } from '../../../components/ui/chunk-error-boundary';
import { SearchIcon } from '../../../components/ui/icons';
import { ScanIcon } from './ScanIcon';
import { retryableLazy } from '../../../components/ui/retryable-lazy';
import { notify } from '../../../components/ui/toaster';
import { useRepairTypes } from '../data/repair-types';
import { afterFirstScreen, loadPersistently } from '../../../lib/start-up';
import { useOnline } from '../../../lib/online';
import { useTypedValuesHandedOver } from '../../../lib/typed-before-hydration';
import { useUnsavedInput } from '../../../lib/unsaved';
import {
  EMPTY_REPAIR_FORM,
  hasRepairInput,
  isValidKodeId,
  kodeIdInvalidMessage,
  parseOdometer,
  toRepairInput,
  useRepairForm,
  type RepairFormValues,
} from '../validation';
import { OdometerConfirmDialog, type ReadingQuestion } from './OdometerConfirmDialog';
import type { OfflineVehicleNoticeProps } from './OfflineVehicleNotice';
import { ConsentField, KodeIdField, OdometerField, RepairTypeField } from './RepairFields';
import { ScanDialog, VinCheck, type VinQuestion } from '../scan';

/** Said of a vehicle looked up offline; its code loads then (from the service worker). */
const OfflineVehicleNotice = retryableLazy<OfflineVehicleNoticeProps>(() => import('./OfflineVehicleNotice'));

/** The timeline's chart and list load once a vehicle is found (docs/PRODUCT.md#vehicle-timeline). */
const VehicleTimeline = retryableLazy(() => import('./VehicleTimeline'));

/**
 * Lookup, reading check and outbox: they need the tablet's database, whose code is not part of the
 * first screen. Loaded once the screen is on show (again later if the network dropped before the
 * service worker had them), or at the first Find or Insert if that comes sooner. The browser keeps a
 * module once loaded, and fetches it anew on the next call after a failure.
 */
const entryActions = () => import('../data/entry-actions');
type EntryActions = Awaited<ReturnType<typeof entryActions>>;

/** The VIN read off the car for the vehicle found, and how it differs from the vehicle's (null: it does not). */
interface VinEntry {
  kodeId: string;
  vin: string;
  mismatch: VinQuestion | null;
}
const NO_VIN_ENTRY: VinEntry = { kodeId: '', vin: '', mismatch: null };

/** Performance mark set once per page load when the kode_id input is mounted and enabled. */
const DASHBOARD_INTERACTIVE_MARK = 'dashboard-interactive';

type VehicleState =
  | { status: 'none' }
  /** cachedAt: when the tablet stored it, if it was served offline from IndexedDB. */
  | { status: 'found'; kodeId: string; vehicle: Vehicle; cachedAt: string | null }
  | { status: 'offline-unknown'; kodeId: string };

function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <Field.Root readOnly>
      <Field.Label>{label}</Field.Label>
      <Input size="lg" readOnly value={value} dir="ltr" tabIndex={value ? 0 : -1} />
    </Field.Root>
  );
}

export function RepairForm() {
  const { t, i18n } = useLingui();
  const types = useRepairTypes();
  // Validation runs on every change (docs/PRODUCT.md#dashboard-form); the hook shows each message when due.
  const form = useRepairForm(EMPTY_REPAIR_FORM);
  const values = form.values;
  // A new version waits while anything is entered (the update prompt reads this).
  useUnsavedInput(hasRepairInput(values));
  const [vehicleState, setVehicleState] = useState<VehicleState>({ status: 'none' });
  const [finding, setFinding] = useState(false);
  const [question, setQuestion] = useState<ReadingQuestion | VinQuestion | null>(null);
  const answer = useRef<((confirmed: boolean) => void) | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useTypedValuesHandedOver(formRef);
  const kodeRef = useRef<HTMLInputElement>(null);
  const odometerRef = useRef<HTMLInputElement>(null);
  const vinRef = useRef<HTMLInputElement>(null);
  const [scanning, setScanning] = useState(false);
  // The VIN read off the car (docs/PRODUCT.md#scanning-and-the-vin-check), for the vehicle it was entered for.
  const [vinEntry, setVinEntry] = useState<VinEntry>(NO_VIN_ENTRY);

  // Offline, a lookup may need the offline notice: have its code ready.
  const online = useOnline();
  useEffect(() => {
    if (!online) OfflineVehicleNotice.preload();
  }, [online]);

  useEffect(() => {
    afterFirstScreen(() => void loadPersistently(entryActions));
  }, []);

  // The moment a mechanic can type a vehicle identifier: what `npm run bench` times at start-up.
  useEffect(() => {
    const input = kodeRef.current;
    if (input && !input.disabled && performance.getEntriesByName(DASHBOARD_INTERACTIVE_MARK).length === 0) {
      performance.mark(DASHBOARD_INTERACTIVE_MARK);
    }
  }, []);

  // The vehicle shown always belongs to the identifier in the field.
  const vehicle: VehicleState =
    vehicleState.status !== 'none' && vehicleState.kodeId === values.kode_id ? vehicleState : { status: 'none' };
  const found = vehicle.status === 'found' ? vehicle.vehicle : null;
  const offlineNotice: OfflineVehicleNoticeProps | null =
    vehicle.status === 'offline-unknown'
      ? { kind: 'unknown' }
      : vehicle.status === 'found' && vehicle.cachedAt
        ? { kind: 'cached', cachedAt: vehicle.cachedAt }
        : null;
  const vinEntered = found && vinEntry.kodeId === found.kode_id ? vinEntry : NO_VIN_ENTRY;

  const operationFailed = () => i18n._(OPERATION_FAILED);

  /**
   * The entry's code, or null once the mechanic has been told it could not be fetched (the network
   * dropped before the service worker had it): what was typed stays, and the message's Retry runs
   * `retry`, the same press again.
   */
  async function loadEntryActions(retry: () => void): Promise<EntryActions | null> {
    try {
      return await entryActions();
    } catch {
      notifyChunkFailure(retry);
      return null;
    }
  }

  async function resolveVehicle(
    { lookupVehicle }: EntryActions,
    kodeId: string,
    announce: boolean,
  ): Promise<VehicleState | null> {
    const result = await lookupVehicle(kodeId);
    let next: VehicleState;
    switch (result.kind) {
      case 'found':
        next = { status: 'found', kodeId, vehicle: result.vehicle, cachedAt: null };
        break;
      case 'cached':
        next = { status: 'found', kodeId, vehicle: result.vehicle, cachedAt: result.fetchedAt };
        break;
      case 'offline-unknown':
        next = { status: 'offline-unknown', kodeId };
        break;
      case 'not-found':
        setVehicleState({ status: 'none' });
        notify.error(result.message || t`Véhicule introuvable`);
        return null;
      case 'error':
        notify.error(result.message || operationFailed());
        return null;
    }
    setVehicleState(next);
    // A vehicle served from the tablet is announced by the offline note alone (docs/PRODUCT.md#add-repair-tab).
    if (announce && next.status === 'found' && next.cachedAt === null) {
      notify.success(t({ id: 'vehicle_found', message: 'Véhicule trouvé' }));
    }
    return next;
  }

  async function find(kodeId = values.kode_id) {
    if (finding) return;
    form.touch('kode_id');
    // docs/PRODUCT.md#messages-and-toasts: the lookup repeats the identifier check and says so in an error toast.
    if (!isValidKodeId(kodeId)) {
      notify.error(i18n._(kodeIdInvalidMessage));
      kodeRef.current?.focus();
      return;
    }
    setFinding(true);
    try {
      const actions = await loadEntryActions(() => void find(kodeId));
      if (actions) await resolveVehicle(actions, kodeId, true);
    } catch {
      notify.error(operationFailed());
    } finally {
      setFinding(false);
    }
  }

  function ask(next: ReadingQuestion | VinQuestion): Promise<boolean> {
    return new Promise((resolve) => {
      answer.current = resolve;
      setQuestion(next);
    });
  }

  function settleQuestion(confirmed: boolean) {
    answer.current?.(confirmed);
    answer.current = null;
    setQuestion(null);
  }

  /**
   * Ready for the next vehicle: the page back at its top, where the alerts above the title are, and the
   * focus in the emptied identifier (leaving it untouched raises no message: use-contract-form.ts).
   */
  function reset() {
    form.reset();
    setVehicleState({ status: 'none' });
    setVinEntry(NO_VIN_ENTRY);
    window.scrollTo({ top: 0, behavior: 'instant' });
    kodeRef.current?.focus({ preventScroll: true });
  }

  async function insert(filled: RepairFormValues) {
    try {
      // Retry submits the form again, with what it holds then.
      const actions = await loadEntryActions(() => formRef.current?.requestSubmit());
      if (!actions) return;
      const { checkReading, discardRepair, submitRepair } = actions;
      const known = vehicle.status === 'none' ? await resolveVehicle(actions, filled.kode_id, false) : vehicle;
      if (!known) return;
      const details = known.status === 'found' ? known.vehicle : null;
      const mismatch = details && vinEntry.kodeId === details.kode_id ? vinEntry.mismatch : null;
      if (mismatch && !(await ask(mismatch))) {
        vinRef.current?.focus();
        return;
      }
      const odometer = parseOdometer(filled.odometer) ?? 0;
      const verdict = await checkReading(filled.kode_id, odometer, details);
      if (verdict.kind !== 'ok' && !(await ask({ kind: verdict.kind, previous: verdict.previous, odometer }))) {
        odometerRef.current?.focus();
        return;
      }
      const outcome = await submitRepair(
        toRepairInput(
          filled,
          details && { vin: details.vin, brand: details.brand, model: details.name, year: details.year },
        ),
      );
      if (outcome.kind === 'rejected') {
        // Refused at once, while the form is still here: the mechanic fixes it in place (docs/PRODUCT.md#messages-and-toasts).
        await discardRepair(outcome.entry.key);
        notify.error(outcome.entry.lastError?.message || operationFailed());
        return;
      }
      notifyEntrySaved(i18n, outcome.kind);
      reset();
    } catch {
      notify.error(operationFailed());
    }
  }

  return (
    <chakra.form
      ref={formRef}
      // As every form of the app (components/ui/app-form.tsx): a native submission, before the
      // prerendered form is hydrated, does nothing, and what was typed before then becomes the form's.
      method="dialog"
      noValidate
      onSubmit={(event) => form.submit(event, insert)}
      bg="bg"
      borderWidth="1px"
      rounded="l3"
      p={{ base: '4', md: '6' }}
      aria-label={t`Nouvelle saisie`}
    >
      <Stack gap="5">
        <KodeIdField
          value={values.kode_id}
          inputRef={kodeRef}
          error={form.error('kode_id')}
          onChange={(value) => form.set('kode_id', value)}
          onBlur={() => form.leave('kode_id')}
          onEnter={() => void find()}
          action={
            <>
              <Button
                type="button"
                size="lg"
                colorPalette="brand"
                variant="outline"
                minHeight="12"
                loading={finding}
                aria-label={t`Rechercher`}
                onClick={() => void find()}
              >
                <SearchIcon />
                <Text as="span" hideBelow="sm">
                  <Trans>Rechercher</Trans>
                </Text>
              </Button>
              <Button
                type="button"
                size="lg"
                colorPalette="brand"
                variant="outline"
                minHeight="12"
                aria-label={t`Scanner`}
                onClick={() => setScanning(true)}
              >
                <ScanIcon />
                <Text as="span" hideBelow="md">
                  <Trans>Scanner</Trans>
                </Text>
              </Button>
            </>
          }
        />

        {offlineNotice && (
          <ChunkErrorBoundary reset={OfflineVehicleNotice.reset}>
            <OfflineVehicleNotice {...offlineNotice} />
          </ChunkErrorBoundary>
        )}

        <SimpleGrid columns={{ base: 2, lg: 4 }} gap="4">
          <ReadOnlyField label={t`VIN`} value={found?.vin ?? ''} />
          <ReadOnlyField label={t`Modèle`} value={found?.name ?? ''} />
          <ReadOnlyField label={t`Marque`} value={found?.brand ?? ''} />
          <ReadOnlyField label={t`Année`} value={found ? String(found.year) : ''} />
        </SimpleGrid>

        {found && (
          <ChunkErrorBoundary reset={VinCheck.reset} resetKey={found.kode_id}>
            <VinCheck
              value={vinEntered.vin}
              vehicleVin={found.vin}
              inputRef={vinRef}
              onChange={(vin, mismatch) => setVinEntry({ kodeId: found.kode_id, vin, mismatch })}
              question={question && !('kind' in question) ? question : null}
              onAnswer={settleQuestion}
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
            value={values.repair_type_id}
            types={types}
            error={form.error('repair_type_id')}
            onChange={(value) => form.pick('repair_type_id', value)}
          />
          <OdometerField
            value={values.odometer}
            inputRef={odometerRef}
            error={form.error('odometer')}
            onChange={(value) => form.set('odometer', value)}
            onBlur={() => form.leave('odometer')}
          />
        </SimpleGrid>

        <ConsentField
          checked={values.consented}
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

      <ScanDialog
        open={scanning}
        target="kode_id"
        onRead={(kodeId) => {
          setScanning(false);
          form.set('kode_id', kodeId);
          void find(kodeId);
        }}
        onClose={() => setScanning(false)}
      />
      <OdometerConfirmDialog
        question={question && 'kind' in question ? question : null}
        onConfirm={() => settleQuestion(true)}
        onCancel={() => settleQuestion(false)}
      />
    </chakra.form>
  );
}
