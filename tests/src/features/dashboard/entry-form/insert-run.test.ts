// @vitest-environment node
/**
 * An Insert run through the flow's steps with the entry's code stubbed: which work each step does, in
 * which order, and what the mechanic is told at the end (the form's suites check what they see of it).
 */
import { describe, expect, it, vi } from 'vitest';
import type { ReadingVerdict } from '../../../../../contract';
import {
  INITIAL_ENTRY_FORM,
  transition,
  type EntryFormState,
  type Outcome,
} from '../../../../../src/features/dashboard/entry-form/flow';
import { runInsert, type InsertActions } from '../../../../../src/features/dashboard/entry-form/insert-run';
import type { NewPhoto, SubmitOutcome } from '../../../../../src/lib/entries';
import { clio } from '../fixtures';

const values = { kode_id: clio.kode_id, odometer: '120500', repair_type_id: 'oil', consented: true };
const LOWER: ReadingVerdict = { kind: 'lower', previous: { odometer: 130_000, at: '2026-10-01T08:00:00.000Z' } };

/** The send's answer: only the fields of its entry the form reads are filled in. */
const sent = (kind: SubmitOutcome['kind'], lastError: { message: string } | null = null) =>
  ({ kind, entry: { key: 'key-1', lastError } }) as unknown as SubmitOutcome;

/** Runs an Insert from `start` with the mechanic giving `answers` in turn; what was done and told. */
async function insert(
  stubs: Partial<InsertActions>,
  { start = INITIAL_ENTRY_FORM, answers = [] as boolean[], photo = undefined as NewPhoto | undefined } = {},
) {
  let state: EntryFormState = start;
  const told: Outcome[] = [];
  const actions = {
    lookupVehicle: vi.fn<InsertActions['lookupVehicle']>().mockResolvedValue({ kind: 'found', vehicle: clio }),
    checkReading: vi.fn<InsertActions['checkReading']>().mockResolvedValue({ kind: 'ok', previous: null }),
    submitRepair: vi.fn<InsertActions['submitRepair']>().mockResolvedValue(sent('stored')),
    discardRepair: vi.fn<InsertActions['discardRepair']>().mockResolvedValue(true),
    ...stubs,
  };
  const dispatch = (event: Parameters<typeof transition>[1]) => (state = transition(state, event));
  await runInsert(values, {
    actions,
    dispatch,
    current: () => state,
    answered: async () => void dispatch({ type: 'answered', confirmed: answers.shift() ?? false }),
    tell: (outcome) => told.push(outcome),
    photo: () => photo,
  });
  return { state, told, actions };
}

describe('an Insert', () => {
  it('looks the vehicle up when Find was not pressed, checks the reading, sends with the vehicle’s details', async () => {
    const { state, told, actions } = await insert({});
    expect(actions.lookupVehicle).toHaveBeenCalledWith(clio.kode_id);
    expect(actions.checkReading).toHaveBeenCalledWith(clio.kode_id, 120_500, clio);
    expect(actions.submitRepair).toHaveBeenCalledWith(
      expect.objectContaining({ kode_id: clio.kode_id, odometer: 120_500, vin: clio.vin, model: 'Clio', year: 2019 }),
      undefined,
    );
    expect(told).toEqual([{ type: 'saved', kind: 'stored' }]);
    expect(state).toEqual(INITIAL_ENTRY_FORM);
  });

  it('writes the odometer photo taken for the entry with it', async () => {
    const photo: NewPhoto = { blob: new Blob(['webp']), type: 'image/webp', width: 1600, height: 1200 };
    const { actions } = await insert({}, { photo });
    expect(actions.submitRepair).toHaveBeenCalledWith(expect.objectContaining({ kode_id: clio.kode_id }), photo);
  });

  it('refused at once: discards the entry it queued and says why, the vehicle kept', async () => {
    const { state, told, actions } = await insert({
      submitRepair: vi.fn<InsertActions['submitRepair']>().mockResolvedValue(sent('rejected', { message: 'Refusée' })),
    });
    expect(actions.discardRepair).toHaveBeenCalledWith('key-1');
    expect(told).toEqual([{ type: 'refused', message: 'Refusée' }]);
    expect(state.insert).toEqual({ step: 'editing' });
    expect(state.vehicle).toMatchObject({ status: 'found', vehicle: clio });
  });

  it('sends nothing when the mechanic goes back from the reading’s question, and sends once confirmed', async () => {
    const checkReading = vi.fn<InsertActions['checkReading']>().mockResolvedValue(LOWER);
    const back = await insert({ checkReading }, { answers: [false] });
    expect(back.actions.submitRepair).not.toHaveBeenCalled();
    expect(back.told).toEqual([{ type: 'back-to-field', field: 'odometer' }]);

    const confirmed = await insert({ checkReading }, { answers: [true] });
    expect(confirmed.actions.submitRepair).toHaveBeenCalledTimes(1);
    expect(confirmed.told).toEqual([{ type: 'saved', kind: 'stored' }]);
  });

  it('a step that throws ends it as failed, with nothing sent', async () => {
    const { state, told, actions } = await insert({
      checkReading: vi.fn<InsertActions['checkReading']>().mockRejectedValue(new Error('IndexedDB closed')),
    });
    expect(actions.submitRepair).not.toHaveBeenCalled();
    expect(told).toEqual([{ type: 'failed', message: null }]);
    expect(state.insert).toEqual({ step: 'editing' });
  });

  it('does nothing while another Insert is under way', async () => {
    const start = transition(INITIAL_ENTRY_FORM, { type: 'insert', values });
    const { state, actions } = await insert({}, { start });
    expect(actions.lookupVehicle).not.toHaveBeenCalled();
    expect(state).toBe(start);
  });
});
