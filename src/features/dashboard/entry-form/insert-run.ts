/**
 * Runs an Insert through the flow's steps (./flow.ts): the work each step asks for (a lookup, the
 * reading check, the send, the discard of an entry refused at once, the mechanic's answer), its answer
 * fed back as an event, until the form is back to editing. No React here: the hook hands over the
 * flow's dispatch, the entry's code and how to tell the mechanic.
 */
import type * as EntryActions from '../data/entry-actions';
import type { NewPhoto, SubmitOutcome } from '../../../lib/entries';
import { entryVehicleDetails, toRepairInput, type RepairFormValues } from '../validation';
import {
  readingOf,
  type EntryDraft,
  type EntryFormEvent,
  type EntryFormState,
  type InsertStep,
  type Outcome,
  type SendAnswer,
} from './flow';

/** What an Insert uses of the entry's code (data/entry-actions.ts, loaded on demand). */
export type InsertActions = Pick<
  typeof EntryActions,
  'lookupVehicle' | 'checkReading' | 'submitRepair' | 'discardRepair'
>;

export interface InsertRun {
  actions: InsertActions;
  /** Applies an event at once and returns the state it leads to. */
  dispatch(event: EntryFormEvent): EntryFormState;
  current(): EntryFormState;
  /** Resolves once the mechanic has answered the question on show (the answer dispatched by then). */
  answered(): Promise<void>;
  /** The odometer's photo taken for this entry, if any: written with it. */
  photo(): NewPhoto | undefined;
  tell(outcome: Outcome): void;
}

type WorkStep = Exclude<InsertStep, { step: 'editing' | 'done' }>;

function sendAnswer(outcome: SubmitOutcome): SendAnswer {
  if (outcome.kind !== 'rejected')
    return outcome.photoLeftOut ? { kind: outcome.kind, photoLeftOut: true } : { kind: outcome.kind };
  return { kind: 'rejected', key: outcome.entry.key, message: outcome.entry.lastError?.message || null };
}

/** The body sent, with what the registry says of the vehicle when it is known. */
function repairInputOf({ values, vehicle }: EntryDraft) {
  return toRepairInput(values, vehicle && entryVehicleDetails(vehicle));
}

/** The work of a step, and the event that answers it (null: the mechanic's answer, dispatched already). */
async function work(step: WorkStep, { actions, answered, photo }: InsertRun): Promise<EntryFormEvent | null> {
  switch (step.step) {
    case 'resolving':
      return { type: 'vehicle-resolved', result: await actions.lookupVehicle(step.values.kode_id) };
    case 'asking':
      await answered();
      return null;
    case 'checking': {
      const { values, vehicle } = step.draft;
      return {
        type: 'reading-checked',
        verdict: await actions.checkReading(values.kode_id, readingOf(step.draft), vehicle),
      };
    }
    case 'submitting':
      return {
        type: 'submitted',
        answer: sendAnswer(await actions.submitRepair(repairInputOf(step.draft), photo())),
      };
    case 'discarding':
      await actions.discardRepair(step.key);
      return { type: 'discarded' };
  }
}

/** The step after this one; a step's work that throws ends the Insert as failed. */
async function advance(step: Exclude<InsertStep, { step: 'editing' }>, run: InsertRun): Promise<InsertStep> {
  if (step.step === 'done') {
    run.tell(step.outcome);
    return run.dispatch({ type: 'settled' }).insert;
  }
  try {
    const event = await work(step, run);
    return (event ? run.dispatch(event) : run.current()).insert;
  } catch {
    return run.dispatch({ type: 'failed' }).insert;
  }
}

/** Insert, with valid values: runs its steps until the form is back to editing (one Insert at a time). */
export async function runInsert(values: RepairFormValues, run: InsertRun): Promise<void> {
  if (run.current().insert.step !== 'editing') return;
  let step = run.dispatch({ type: 'insert', values }).insert;
  while (step.step !== 'editing') {
    const following = await advance(step, run);
    if (following === step) break; // an answer the step did not take: never run the same step twice
    step = following;
  }
}
