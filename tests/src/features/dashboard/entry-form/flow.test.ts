// @vitest-environment node
/**
 * The new-entry form's flow, step by step, as a pure function: what each event leads to, with no
 * React, no database and no network (the form's own suites check what the mechanic sees of it).
 */
import { describe, expect, it } from 'vitest';
import type { ReadingVerdict } from '../../../../../contract';
import type { VehicleLookup } from '../../../../../src/features/dashboard/data/vehicles';
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
} from '../../../../../src/features/dashboard/entry-form/flow';
import type { RepairFormValues } from '../../../../../src/features/dashboard/validation';
import { clio } from '../fixtures';

const values: RepairFormValues = { kode_id: clio.kode_id, odometer: '120500', repair_type_id: 'oil', consented: true };
const previous = { odometer: 130_000, at: '2026-10-01T08:00:00.000Z' };
const mismatch = { entered: 'VF1RJA00000000002', vehicleVin: clio.vin, checkDigitFailed: false };

/** The state after each event in turn, from `state`. */
function run(state: EntryFormState, ...events: EntryFormEvent[]): EntryFormState {
  return events.reduce(transition, state);
}

const found = (vehicle = clio): VehicleLookup => ({ kind: 'found', vehicle });
const answeredFor = (kodeId: string, result: VehicleLookup): EntryFormEvent => ({
  type: 'lookup-answered',
  kodeId,
  result,
});
/** Clio found by Find, the form filled in. */
const withClio = run(INITIAL_ENTRY_FORM, { type: 'find', kodeId: clio.kode_id }, answeredFor(clio.kode_id, found()));
const draft = { values, vehicle: clio };

describe('Find', () => {
  it('looks up one identifier at a time, then shows the vehicle for it and announces it', () => {
    const finding = transition(INITIAL_ENTRY_FORM, { type: 'find', kodeId: clio.kode_id });
    expect(finding.lookup).toEqual({ step: 'finding', kodeId: clio.kode_id });
    expect(transition(finding, { type: 'find', kodeId: 'KODE000002' })).toBe(finding);

    const answered = transition(finding, answeredFor(clio.kode_id, found()));
    expect(answered.lookup).toEqual({ step: 'idle' });
    expect(vehicleFor(answered, clio.kode_id)).toEqual({
      status: 'found',
      kodeId: clio.kode_id,
      vehicle: clio,
      cachedAt: null,
    });
    expect(offlineNoticeOf(vehicleFor(answered, clio.kode_id))).toBeNull();
    expect(lookupOutcome(found())).toEqual({ type: 'vehicle-found' });
  });

  it('keeps an answer that arrives after the identifier changed, shown only while the field holds its identifier', () => {
    const finding = transition(INITIAL_ENTRY_FORM, { type: 'find', kodeId: clio.kode_id });
    // The mechanic has typed another identifier meanwhile: the answer is not that vehicle's.
    const answered = transition(finding, answeredFor(clio.kode_id, found()));
    expect(vehicleFor(answered, 'KODE000002')).toEqual({ status: 'none' });
    expect(vinFor(answered, null).vin).toBe('');
    // Typed back, the identifier shows its vehicle again.
    expect(vehicleFor(answered, clio.kode_id)).toMatchObject({ status: 'found', vehicle: clio });
  });

  it('offline: the tablet’s copy with when it was stored, or an identifier the tablet does not know', () => {
    const cached = transition(
      withClio,
      answeredFor('KODE000002', { kind: 'cached', vehicle: { ...clio, kode_id: 'KODE000002' }, fetchedAt: 'then' }),
    );
    expect(offlineNoticeOf(vehicleFor(cached, 'KODE000002'))).toEqual({ kind: 'cached', cachedAt: 'then' });
    expect(lookupOutcome({ kind: 'cached', vehicle: clio, fetchedAt: 'then' })).toBeNull();

    const unknown: VehicleLookup = { kind: 'offline-unknown', kodeId: 'KODE000003' };
    const notKnownHere = transition(withClio, answeredFor('KODE000003', unknown));
    expect(offlineNoticeOf(vehicleFor(notKnownHere, 'KODE000003'))).toEqual({ kind: 'unknown' });
    expect(lookupOutcome(unknown)).toBeNull();
  });

  it('an unknown vehicle clears the one shown; an error leaves it, each told with the server’s message', () => {
    const notFound: VehicleLookup = { kind: 'not-found', message: 'Véhicule introuvable' };
    expect(transition(withClio, answeredFor(clio.kode_id, notFound)).vehicle).toEqual({ status: 'none' });
    expect(lookupOutcome(notFound)).toEqual({ type: 'vehicle-not-found', message: 'Véhicule introuvable' });

    const error: VehicleLookup = { kind: 'error', message: '' };
    expect(transition(withClio, answeredFor('KODE000002', error)).vehicle).toBe(withClio.vehicle);
    expect(lookupOutcome(error)).toEqual({ type: 'failed', message: null });
  });

  it('a lookup that could not run ends the Find and changes nothing else', () => {
    const finding = transition(withClio, { type: 'find', kodeId: 'KODE000002' });
    expect(transition(finding, { type: 'lookup-failed' })).toEqual(withClio);
  });
});

describe('Insert', () => {
  it('before Find: looks the vehicle up first, then checks the reading', () => {
    const resolving = transition(INITIAL_ENTRY_FORM, { type: 'insert', values });
    expect(resolving.insert).toEqual({ step: 'resolving', values });

    const checking = transition(resolving, { type: 'vehicle-resolved', result: found() });
    expect(checking.insert).toEqual({ step: 'checking', draft });
    expect(vehicleFor(checking, clio.kode_id)).toMatchObject({ status: 'found', vehicle: clio, cachedAt: null });
  });

  it('before Find, offline and unknown on the tablet: goes on without the vehicle’s details', () => {
    const checking = run(
      INITIAL_ENTRY_FORM,
      { type: 'insert', values },
      { type: 'vehicle-resolved', result: { kind: 'offline-unknown', kodeId: clio.kode_id } },
    );
    expect(checking.insert).toEqual({ step: 'checking', draft: { values, vehicle: null } });
  });

  it('before Find, a vehicle that does not exist or a failed lookup ends the Insert, told as a Find would', () => {
    const resolving = transition(withClio, { type: 'insert', values: { ...values, kode_id: 'KODE000009' } });
    const notFound = transition(resolving, {
      type: 'vehicle-resolved',
      result: { kind: 'not-found', message: 'Véhicule introuvable' },
    });
    expect(notFound.insert).toEqual({
      step: 'done',
      outcome: { type: 'vehicle-not-found', message: 'Véhicule introuvable' },
    });
    expect(notFound.vehicle).toEqual({ status: 'none' });

    const error = transition(resolving, { type: 'vehicle-resolved', result: { kind: 'error', message: 'Boom' } });
    expect(error.insert).toEqual({ step: 'done', outcome: { type: 'failed', message: 'Boom' } });
    expect(transition(error, { type: 'settled' }).insert).toEqual({ step: 'editing' });
  });

  it('after Find: checks the reading at once', () => {
    expect(transition(withClio, { type: 'insert', values }).insert).toEqual({ step: 'checking', draft });
  });

  describe('the VIN read off the car', () => {
    const withMismatch = transition(withClio, { type: 'vin-changed', kodeId: clio.kode_id, vin: 'X', mismatch });

    it('is asked about first when it is another vehicle’s; going back leads to the VIN field', () => {
      const asking = transition(withMismatch, { type: 'insert', values });
      expect(questionOf(asking)).toEqual({ type: 'vin', vin: mismatch });
      expect(vinFor(asking, clio)).toEqual({ kodeId: clio.kode_id, vin: 'X', mismatch });

      const back = transition(asking, { type: 'answered', confirmed: false });
      expect(back.insert).toEqual({ step: 'done', outcome: { type: 'back-to-field', field: 'vin_check' } });
      const editing = transition(back, { type: 'settled' });
      expect(editing.insert).toEqual({ step: 'editing' });
      expect(editing.vin).toBe(withMismatch.vin);
    });

    it('confirmed, the reading is checked next', () => {
      const confirmed = run(withMismatch, { type: 'insert', values }, { type: 'answered', confirmed: true });
      expect(confirmed.insert).toEqual({ step: 'checking', draft });
      expect(questionOf(confirmed)).toBeNull();
    });

    it('entered for another vehicle, asks nothing', () => {
      const other = transition(withClio, { type: 'vin-changed', kodeId: 'KODE000002', vin: 'X', mismatch });
      expect(transition(other, { type: 'insert', values }).insert).toEqual({ step: 'checking', draft });
    });
  });

  describe('the reading check (docs/PRODUCT.md#odometer-plausibility)', () => {
    const checking = transition(withClio, { type: 'insert', values });
    const verdict = (kind: 'lower' | 'too_high'): ReadingVerdict => ({ kind, previous });

    it('a plausible reading is sent', () => {
      const ok = transition(checking, { type: 'reading-checked', verdict: { kind: 'ok', previous: null } });
      expect(ok.insert).toEqual({ step: 'submitting', draft });
    });

    it.each(['lower', 'too_high'] as const)('a %s reading is asked about, with the reading as a number', (kind) => {
      const asking = transition(checking, { type: 'reading-checked', verdict: verdict(kind) });
      expect(questionOf(asking)).toEqual({ type: 'reading', reading: { kind, previous, odometer: 120_500 } });
      expect(transition(asking, { type: 'answered', confirmed: true }).insert).toEqual({ step: 'submitting', draft });
      expect(transition(asking, { type: 'answered', confirmed: false }).insert).toEqual({
        step: 'done',
        outcome: { type: 'back-to-field', field: 'odometer' },
      });
    });
  });

  describe('the send', () => {
    const submitting = run(
      withClio,
      { type: 'vin-changed', kodeId: clio.kode_id, vin: clio.vin, mismatch: null },
      { type: 'insert', values },
      { type: 'reading-checked', verdict: { kind: 'ok', previous: null } },
    );

    it.each(['stored', 'queued'] as const)('%s: saved, then the form is ready for the next vehicle', (kind) => {
      const saved = transition(submitting, { type: 'submitted', answer: { kind } });
      expect(saved.insert).toEqual({ step: 'done', outcome: { type: 'saved', kind } });
      const next = transition(saved, { type: 'settled' });
      expect(next).toEqual({ ...INITIAL_ENTRY_FORM, lookup: submitting.lookup });
    });

    it('refused at once: the entry is discarded from the tablet and the form keeps everything', () => {
      const discarding = transition(submitting, {
        type: 'submitted',
        answer: { kind: 'rejected', key: 'key-1', message: 'Type de panne inconnu' },
      });
      expect(discarding.insert).toEqual({ step: 'discarding', key: 'key-1', message: 'Type de panne inconnu' });

      const refused = transition(discarding, { type: 'discarded' });
      expect(refused.insert).toEqual({ step: 'done', outcome: { type: 'refused', message: 'Type de panne inconnu' } });
      const editing = transition(refused, { type: 'settled' });
      expect(editing).toEqual({ ...submitting, insert: { step: 'editing' } });
    });

    it('a step whose work throws ends the Insert as failed, the form kept', () => {
      const failed = transition(submitting, { type: 'failed' });
      expect(failed.insert).toEqual({ step: 'done', outcome: { type: 'failed', message: null } });
      expect(transition(failed, { type: 'settled' })).toEqual({ ...submitting, insert: { step: 'editing' } });
    });
  });

  it('takes each answer only in the step that waits for it, and one Insert at a time', () => {
    const checking = transition(withClio, { type: 'insert', values });
    expect(transition(checking, { type: 'insert', values })).toBe(checking);
    expect(transition(checking, { type: 'answered', confirmed: true })).toBe(checking);
    expect(transition(checking, { type: 'submitted', answer: { kind: 'stored' } })).toBe(checking);
    expect(transition(checking, { type: 'settled' })).toBe(checking);
    expect(transition(withClio, { type: 'failed' })).toBe(withClio);
    expect(transition(withClio, { type: 'discarded' })).toBe(withClio);
  });
});

describe('the scanner', () => {
  it('opens and closes', () => {
    const open = transition(INITIAL_ENTRY_FORM, { type: 'scan-opened' });
    expect(open.scanning).toBe(true);
    expect(transition(open, { type: 'scan-closed' }).scanning).toBe(false);
  });
});
