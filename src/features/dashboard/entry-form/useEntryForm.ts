/**
 * Runs the new-entry form's flow (./flow.ts): holds its state, runs Find and Insert (./insert-run.ts)
 * with the entry's code loaded on demand, and tells the mechanic each outcome (toasts, focus, the page
 * back at its top). The form's values and messages are the form hook's (useRepairForm); the view
 * (components/RepairForm.tsx) only shows what this returns.
 */
import { msg, plural } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { notifyChunkFailure } from '../../../components/ui/chunk-error-boundary';
import { notify } from '../../../components/ui/toaster';
import { OPERATION_FAILED } from '../../../lib/error-messages';
import { afterFirstScreen, loadPersistently } from '../../../lib/start-up';
import { useTypedValuesHandedOver } from '../../../lib/typed-before-hydration';
import { useUnsavedInput } from '../../../lib/unsaved';
import { notifyEntrySaved, notifyPhotoLeftOut } from '../notify-saved';
import { usePhotoDraft } from '../photo';
import type { VinQuestion } from '../scan';
import {
  EMPTY_REPAIR_FORM,
  hasRepairInput,
  isValidKodeId,
  kodeIdInvalidMessage,
  useRepairForm,
  type RepairFormValues,
} from '../validation';
import {
  INITIAL_ENTRY_FORM,
  lookupOutcome,
  offlineNoticeOf,
  questionOf,
  transition,
  vehicleFor,
  vinFor,
  type EntryFormEvent,
  type EntryFormState,
  type Outcome,
} from './flow';
import { runInsert } from './insert-run';
import { useStableCallbacks } from '../../../hooks/use-stable-callbacks';

/**
 * Lookup, reading check and outbox: they need the tablet's database, whose code is not part of the
 * first screen. Loaded once the screen is on show (again later if the network dropped before the
 * service worker had them), or at the first Find or Insert if that comes sooner. The browser keeps a
 * module once loaded, and fetches it anew on the next call after a failure.
 */
const entryActions = () => import('../data/entry-actions');
type EntryActions = Awaited<ReturnType<typeof entryActions>>;

/** Performance mark set once per page load when the kode_id input is mounted and enabled. */
const DASHBOARD_INTERACTIVE_MARK = 'dashboard-interactive';

/** A field of the form by its name (kode_id, odometer, vin_check). */
function fieldOf(form: HTMLFormElement | null, name: string): HTMLInputElement | null {
  const field = form?.elements.namedItem(name);
  return field instanceof HTMLInputElement ? field : null;
}

/**
 * The flow's state; `dispatch` applies an event at once and returns the state it leads to. A question
 * waits for `answer`, which applies the mechanic's answer in the tap's own update, so the dialog closes
 * with it.
 */
function useFlow() {
  const [state, setState] = useState<EntryFormState>(INITIAL_ENTRY_FORM);
  // The state as of the last event, for the steps of an Insert that follow one another between renders.
  const latest = useRef(state);
  const pendingAnswer = useRef<(() => void) | null>(null);
  const dispatch = (event: EntryFormEvent): EntryFormState => {
    latest.current = transition(latest.current, event);
    setState(latest.current);
    return latest.current;
  };
  return {
    state,
    dispatch,
    current: () => latest.current,
    answered: () => new Promise<void>((resolve) => (pendingAnswer.current = resolve)),
    answer: (confirmed: boolean) => {
      const resume = pendingAnswer.current;
      pendingAnswer.current = null;
      if (!resume) return;
      dispatch({ type: 'answered', confirmed });
      resume();
    },
  };
}

/** What happens once the form is on show: the start-up mark, and the entry's code fetched ahead of need. */
function useFormOnShow(formRef: RefObject<HTMLFormElement | null>) {
  useEffect(() => {
    afterFirstScreen(() => void loadPersistently(entryActions));
  }, []);

  // The moment a mechanic can type a vehicle identifier: what `npm run bench` times at start-up.
  useEffect(() => {
    const input = fieldOf(formRef.current, 'kode_id');
    if (input && !input.disabled && performance.getEntriesByName(DASHBOARD_INTERACTIVE_MARK).length === 0) {
      performance.mark(DASHBOARD_INTERACTIVE_MARK);
    }
  }, [formRef]);
}

/** The entry's fields as the toast after a refused Insert names them. */
const FIELD_NAMES = {
  kode_id: msg`KODE ID`,
  repair_type_id: msg`Type de panne`,
  odometer: msg`Kilométrage`,
  consented: msg`Confirmation`,
} as const;

/** Between the names of a list: Arabic writes its own comma (،). */
function listSeparator(locale: string): string {
  return locale === 'ar' ? '، ' : ', ';
}

/** "3 champs à compléter : KODE ID, Type de panne, Kilométrage". */
function fieldsToFix(count: number, names: string): MessageDescriptor {
  return msg`${plural(count, { one: '# champ à compléter', other: '# champs à compléter' })} : ${names}`;
}

/** `formRef`: the form element, whose fields take the focus the flow gives (by their names). */
export function useEntryForm(formRef: RefObject<HTMLFormElement | null>) {
  const { t, i18n } = useLingui();
  // Validation runs on every change (docs/PRODUCT.md#dashboard-form); the hook shows each message when due.
  const form = useRepairForm(EMPTY_REPAIR_FORM);
  // Its draft is followed by the photo's field alone (which says when a picture is unsaved input).
  const photo = usePhotoDraft();
  // A new version waits while anything is entered (the update prompt reads this).
  useUnsavedInput(hasRepairInput(form.values));
  useTypedValuesHandedOver(formRef);
  useFormOnShow(formRef);
  const flow = useFlow();
  const { state, dispatch, current } = flow;

  const operationFailed = () => i18n._(OPERATION_FAILED);
  const focus = (name: string, options?: FocusOptions) => fieldOf(formRef.current, name)?.focus(options);

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

  function tell(outcome: Outcome | null) {
    switch (outcome?.type) {
      case 'vehicle-found':
        return notify.success(() => t({ id: 'vehicle_found', message: 'Véhicule trouvé' }));
      case 'vehicle-not-found':
        return notify.error(outcome.message || (() => t`Véhicule introuvable`));
      case 'failed':
      case 'refused':
        return notify.error(outcome.message || operationFailed);
      case 'back-to-field':
        return focus(outcome.field);
      case 'saved':
        notifyEntrySaved(i18n, outcome.kind);
        if (outcome.photoLeftOut) notifyPhotoLeftOut(i18n);
        return readyForNextEntry();
    }
  }

  /**
   * Ready for the next vehicle: the page back at its top, where the alerts above the title are, and the
   * focus in the emptied identifier (leaving it untouched raises no message: use-contract-form.ts).
   */
  function readyForNextEntry() {
    form.reset();
    photo.clear();
    window.scrollTo({ top: 0, behavior: 'instant' });
    focus('kode_id', { preventScroll: true });
  }

  async function find(kodeId = form.values.kode_id) {
    if (current().lookup.step === 'finding') return;
    form.touch('kode_id');
    // docs/PRODUCT.md#messages-and-toasts: the lookup repeats the identifier check and says so in an error toast.
    if (!isValidKodeId(kodeId)) {
      notify.error(() => i18n._(kodeIdInvalidMessage));
      focus('kode_id');
      return;
    }
    dispatch({ type: 'find', kodeId });
    try {
      const actions = await loadEntryActions(() => void find(kodeId));
      if (!actions) return dispatch({ type: 'lookup-failed' });
      const result = await actions.lookupVehicle(kodeId);
      dispatch({ type: 'lookup-answered', kodeId, result });
      tell(lookupOutcome(result));
    } catch {
      dispatch({ type: 'lookup-failed' });
      notify.error(operationFailed);
    }
  }

  /**
   * Insert refused by the form's own checks: each field says what is wrong under it, and a toast says
   * how many need attention and which, so the mechanic does not stop at the first message.
   */
  function tellFieldsToFix(fields: string[]) {
    // In the order the form shows them.
    const names = () =>
      (Object.keys(FIELD_NAMES) as (keyof typeof FIELD_NAMES)[])
        .filter((field) => fields.includes(field))
        .map((field) => i18n._(FIELD_NAMES[field]))
        .join(listSeparator(i18n.locale));
    notify.error(() => i18n._(fieldsToFix(fields.length, names())));
  }

  /** Insert, with valid values. */
  async function insert(values: RepairFormValues) {
    // Retry submits the form again, with what it holds then.
    const actions = await loadEntryActions(() => formRef.current?.requestSubmit());
    if (actions) await runInsert(values, { ...flow, actions, tell, photo: photo.current });
  }

  // The same functions at every render: the form's memoised fields and buttons skip a keystroke elsewhere.
  const handlers = useStableCallbacks({
    find: () => void find(),
    submit: (event: FormEvent<HTMLFormElement>) => form.submit(event, insert, tellFieldsToFix),
    answer: flow.answer,
    changeVin: (kodeId: string, vin: string, mismatch: VinQuestion | null) =>
      dispatch({ type: 'vin-changed', kodeId, vin, mismatch }),
    openScanner: () => dispatch({ type: 'scan-opened' }),
    closeScanner: () => dispatch({ type: 'scan-closed' }),
    /** A KODE ID read by the scanner: into the field, and looked up. */
    scanned: (kodeId: string) => {
      dispatch({ type: 'scan-closed' });
      form.set('kode_id', kodeId);
      void find(kodeId);
    },
  });

  const known = vehicleFor(state, form.values.kode_id);
  const found = known.status === 'found' ? known.vehicle : null;
  return {
    form,
    /** The odometer's photo for this entry (optional). */
    photo,
    /** The vehicle found for the identifier in the field. */
    found,
    /** Said of a vehicle looked up offline: from the tablet's copy, or not known here. */
    offlineNotice: offlineNoticeOf(known),
    vin: vinFor(state, found).vin,
    question: questionOf(state),
    finding: state.lookup.step === 'finding',
    scanning: state.scanning,
    ...handlers,
  };
}
