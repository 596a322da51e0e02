/**
 * The new-entry form's flow (docs/PRODUCT.md#add-repair-tab, docs/PRODUCT.md#odometer-plausibility) as
 * a state machine: what the form knows of the vehicle, the VIN read off the car, a Find under way, the
 * scanner, and where an Insert stands. Pure: `useEntryForm` does the work each step asks for (a lookup,
 * the reading check, the send, the mechanic's answer) and feeds its answer back as an event.
 *
 * An Insert goes: resolving (only when the vehicle was not looked up) → asking about the VIN (only when
 * the VIN read off the car is another vehicle's) → checking the reading → asking about the reading
 * (only when it is implausible) → submitting → discarding (only when the server refused it at once) →
 * done, where the hook tells the mechanic the outcome, then editing again.
 */
import type { KnownReading, ReadingVerdict, Vehicle } from '../../../../contract';
import type { OfflineVehicleNoticeProps } from '../components/OfflineVehicleNotice';
import type { VehicleLookup } from '../data/vehicles';
import type { VinQuestion } from '../scan';
import { parseOdometer, type RepairFormValues } from '../validation';

/** What the form knows of a vehicle, for the identifier it was looked up with. */
export type KnownVehicle =
  | { status: 'none' }
  /** cachedAt: when the tablet stored it, if it was served offline from IndexedDB. */
  | { status: 'found'; kodeId: string; vehicle: Vehicle; cachedAt: string | null }
  | { status: 'offline-unknown'; kodeId: string };

/** The VIN read off the car for the vehicle found, and how it differs from the vehicle's (null: it does not). */
export interface VinEntry {
  kodeId: string;
  vin: string;
  mismatch: VinQuestion | null;
}

/** docs/PRODUCT.md#odometer-plausibility: the reading is lower than the last one, or implausibly high. */
export interface ReadingQuestion {
  kind: 'lower' | 'too_high';
  previous: KnownReading;
  odometer: number;
}

/** What Insert asks the mechanic before sending. */
export type Question = { type: 'vin'; vin: VinQuestion } | { type: 'reading'; reading: ReadingQuestion };

/** An Insert's values with the vehicle they go to (null: not known on this tablet, checked by the server). */
export interface EntryDraft {
  values: RepairFormValues;
  vehicle: Vehicle | null;
}

/** What the mechanic is told, or where the focus goes, once a lookup or an Insert is over. */
export type Outcome =
  | { type: 'vehicle-found' }
  | { type: 'vehicle-not-found'; message: string | null }
  | { type: 'failed'; message: string | null }
  /** Refused by the server at once: the entry was dropped from the outbox, the form keeps it. */
  | { type: 'refused'; message: string | null }
  /** `photoLeftOut`: the tablet had no room for the entry's photo, so the entry was kept without it. */
  | { type: 'saved'; kind: 'stored' | 'queued'; photoLeftOut?: boolean }
  /** The mechanic answered a question with "go back": to the field it was about. */
  | { type: 'back-to-field'; field: 'vin_check' | 'odometer' };

export type InsertStep =
  | { step: 'editing' }
  | { step: 'resolving'; values: RepairFormValues }
  | { step: 'asking'; draft: EntryDraft; question: Question }
  | { step: 'checking'; draft: EntryDraft }
  | { step: 'submitting'; draft: EntryDraft }
  | { step: 'discarding'; key: string; message: string | null }
  | { step: 'done'; outcome: Outcome };

export type LookupStep = { step: 'idle' } | { step: 'finding'; kodeId: string };

export interface EntryFormState {
  vehicle: KnownVehicle;
  vin: VinEntry;
  lookup: LookupStep;
  insert: InsertStep;
  scanning: boolean;
}

/** What the send answered, in the form's terms. */
export type SendAnswer =
  { kind: 'stored' | 'queued'; photoLeftOut?: boolean } | { kind: 'rejected'; key: string; message: string | null };

export type EntryFormEvent =
  | { type: 'find'; kodeId: string }
  | { type: 'lookup-answered'; kodeId: string; result: VehicleLookup }
  /** The lookup's code could not be loaded, or the lookup threw. */
  | { type: 'lookup-failed' }
  | { type: 'vin-changed'; kodeId: string; vin: string; mismatch: VinQuestion | null }
  | { type: 'scan-opened' }
  | { type: 'scan-closed' }
  | { type: 'insert'; values: RepairFormValues }
  | { type: 'vehicle-resolved'; result: VehicleLookup }
  | { type: 'answered'; confirmed: boolean }
  | { type: 'reading-checked'; verdict: ReadingVerdict }
  | { type: 'submitted'; answer: SendAnswer }
  | { type: 'discarded' }
  /** The work of the current Insert step threw. */
  | { type: 'failed' }
  /** The mechanic has been told the outcome. */
  | { type: 'settled' };

const NO_VEHICLE: KnownVehicle = { status: 'none' };
const NO_VIN_ENTRY: VinEntry = { kodeId: '', vin: '', mismatch: null };
const EDITING: InsertStep = { step: 'editing' };

export const INITIAL_ENTRY_FORM: EntryFormState = {
  vehicle: NO_VEHICLE,
  vin: NO_VIN_ENTRY,
  lookup: { step: 'idle' },
  insert: EDITING,
  scanning: false,
};

/** The vehicle shown always belongs to the identifier in the field: an answer for another one is kept, not shown. */
export function vehicleFor(state: EntryFormState, kodeId: string): KnownVehicle {
  return state.vehicle.status !== 'none' && state.vehicle.kodeId === kodeId ? state.vehicle : NO_VEHICLE;
}

/** What the form says of a vehicle looked up offline: from the tablet's copy, or not known here (null: the server's answer). */
export function offlineNoticeOf(known: KnownVehicle): OfflineVehicleNoticeProps | null {
  if (known.status === 'offline-unknown') return { kind: 'unknown' };
  return known.status === 'found' && known.cachedAt ? { kind: 'cached', cachedAt: known.cachedAt } : null;
}

/** The VIN entered for the vehicle found (none for another vehicle's). */
export function vinFor(state: EntryFormState, vehicle: Vehicle | null): VinEntry {
  return vehicle && state.vin.kodeId === vehicle.kode_id ? state.vin : NO_VIN_ENTRY;
}

/** The question on show, if an Insert is waiting for the mechanic's answer. */
export function questionOf(state: EntryFormState): Question | null {
  return state.insert.step === 'asking' ? state.insert.question : null;
}

/** The vehicle a lookup's answer makes known; a failed lookup leaves what was known. */
function vehicleAfter(known: KnownVehicle, kodeId: string, result: VehicleLookup): KnownVehicle {
  switch (result.kind) {
    case 'found':
      return { status: 'found', kodeId, vehicle: result.vehicle, cachedAt: null };
    case 'cached':
      return { status: 'found', kodeId, vehicle: result.vehicle, cachedAt: result.fetchedAt };
    case 'offline-unknown':
      return { status: 'offline-unknown', kodeId };
    case 'not-found':
      return NO_VEHICLE;
    case 'error':
      return known;
  }
}

/** What the mechanic is told when a lookup gave no vehicle to go on with; null when it did. */
function lookupFailure(result: VehicleLookup): Outcome | null {
  if (result.kind === 'not-found') return { type: 'vehicle-not-found', message: result.message || null };
  if (result.kind === 'error') return { type: 'failed', message: result.message || null };
  return null;
}

/** What the mechanic is told of a Find's answer; a vehicle served from the tablet is announced by the offline note alone. */
export function lookupOutcome(result: VehicleLookup): Outcome | null {
  return result.kind === 'found' ? { type: 'vehicle-found' } : lookupFailure(result);
}

/** Once the vehicle is settled: the VIN question first if the VIN read off the car is another's, else the reading check. */
function afterVehicle(state: EntryFormState, values: RepairFormValues, known: KnownVehicle): InsertStep {
  const vehicle = known.status === 'found' ? known.vehicle : null;
  const draft: EntryDraft = { values, vehicle };
  const mismatch = vinFor(state, vehicle).mismatch;
  return mismatch ? { step: 'asking', draft, question: { type: 'vin', vin: mismatch } } : { step: 'checking', draft };
}

function startInsert(state: EntryFormState, values: RepairFormValues): InsertStep {
  const known = vehicleFor(state, values.kode_id);
  return known.status === 'none' ? { step: 'resolving', values } : afterVehicle(state, values, known);
}

function resolved(state: EntryFormState, values: RepairFormValues, result: VehicleLookup): EntryFormState {
  const vehicle = vehicleAfter(state.vehicle, values.kode_id, result);
  // Told as a Find's answer is, except that a vehicle found is not announced: the entry goes on.
  const failure = lookupFailure(result);
  const insert: InsertStep = failure ? { step: 'done', outcome: failure } : afterVehicle(state, values, vehicle);
  return { ...state, vehicle, insert };
}

function answered(draft: EntryDraft, question: Question, confirmed: boolean): InsertStep {
  if (question.type === 'vin') {
    return confirmed
      ? { step: 'checking', draft }
      : { step: 'done', outcome: { type: 'back-to-field', field: 'vin_check' } };
  }
  return confirmed
    ? { step: 'submitting', draft }
    : { step: 'done', outcome: { type: 'back-to-field', field: 'odometer' } };
}

/** The reading an Insert records, as a number (the form has checked it is one). */
export function readingOf(draft: EntryDraft): number {
  return parseOdometer(draft.values.odometer) ?? 0;
}

function readingChecked(draft: EntryDraft, verdict: ReadingVerdict): InsertStep {
  if (verdict.kind === 'ok') return { step: 'submitting', draft };
  const odometer = readingOf(draft);
  return {
    step: 'asking',
    draft,
    question: { type: 'reading', reading: { kind: verdict.kind, previous: verdict.previous, odometer } },
  };
}

function submitted(answer: SendAnswer): InsertStep {
  // Refused at once, while the form is still here: dropped, so the mechanic fixes it in place (docs/PRODUCT.md#messages-and-toasts).
  if (answer.kind === 'rejected') return { step: 'discarding', key: answer.key, message: answer.message };
  const outcome: Outcome = { type: 'saved', kind: answer.kind };
  return { step: 'done', outcome: answer.photoLeftOut ? { ...outcome, photoLeftOut: true } : outcome };
}

/** After the outcome was told: a saved entry leaves the form ready for the next vehicle, anything else keeps it. */
function settled(state: EntryFormState, outcome: Outcome): EntryFormState {
  if (outcome.type === 'saved') return { ...state, vehicle: NO_VEHICLE, vin: NO_VIN_ENTRY, insert: EDITING };
  return { ...state, insert: EDITING };
}

/** The Insert's next step, or the same one when the event does not belong to it. */
function insertTransition(state: EntryFormState, event: EntryFormEvent): EntryFormState {
  const current = state.insert;
  const next = (insert: InsertStep): EntryFormState => ({ ...state, insert });
  switch (event.type) {
    case 'insert':
      return current.step === 'editing' ? next(startInsert(state, event.values)) : state;
    case 'vehicle-resolved':
      return current.step === 'resolving' ? resolved(state, current.values, event.result) : state;
    case 'answered':
      return current.step === 'asking' ? next(answered(current.draft, current.question, event.confirmed)) : state;
    case 'reading-checked':
      return current.step === 'checking' ? next(readingChecked(current.draft, event.verdict)) : state;
    case 'submitted':
      return current.step === 'submitting' ? next(submitted(event.answer)) : state;
    case 'discarded':
      return current.step === 'discarding'
        ? next({ step: 'done', outcome: { type: 'refused', message: current.message } })
        : state;
    case 'failed':
      return current.step === 'editing' || current.step === 'done'
        ? state
        : next({ step: 'done', outcome: { type: 'failed', message: null } });
    case 'settled':
      return current.step === 'done' ? settled(state, current.outcome) : state;
    default:
      return state;
  }
}

export function transition(state: EntryFormState, event: EntryFormEvent): EntryFormState {
  switch (event.type) {
    case 'find':
      // One Find at a time; a second press while one is under way does nothing.
      return state.lookup.step === 'idle' ? { ...state, lookup: { step: 'finding', kodeId: event.kodeId } } : state;
    case 'lookup-answered':
      // Kept for the identifier it answers even if the field has changed since: shown only while they match.
      return { ...state, lookup: { step: 'idle' }, vehicle: vehicleAfter(state.vehicle, event.kodeId, event.result) };
    case 'lookup-failed':
      return { ...state, lookup: { step: 'idle' } };
    case 'vin-changed':
      return { ...state, vin: { kodeId: event.kodeId, vin: event.vin, mismatch: event.mismatch } };
    case 'scan-opened':
      return { ...state, scanning: true };
    case 'scan-closed':
      return { ...state, scanning: false };
    default:
      return insertTransition(state, event);
  }
}
