/**
 * The dashboard form's values and their rules (docs/PRODUCT.md#validation-rules), from the shared
 * contract; the form hook (src/hooks/use-contract-form.ts) decides when a message shows.
 */
import { KODE_ID_LENGTH, KODE_ID_PATTERN, repairForm, type Vehicle } from '../../../contract';
import { useContractForm } from '../../hooks/use-contract-form';
import { ERROR_MESSAGES } from '../../lib/error-messages';
import type { RepairInput } from '../../lib/entries';

/** Named as in the contract's repairForm, so its problems land on these fields. */
export interface RepairFormValues {
  kode_id: string;
  /** Digits as typed; parsed on validation. */
  odometer: string;
  repair_type_id: string;
  consented: boolean;
}

export const EMPTY_REPAIR_FORM: RepairFormValues = { kode_id: '', odometer: '', repair_type_id: '', consented: false };

/** 'Veuillez saisir un KODE ID valide', also the Find toast (docs/PRODUCT.md#messages-and-toasts). */
export const kodeIdInvalidMessage = ERROR_MESSAGES.kode_id_invalid;

/** Upper-case letters and digits only, at most 10, as typed. */
export function cleanKodeId(value: string): string {
  return value
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, KODE_ID_LENGTH);
}

/** Whole kilometres: digits only (7 at most covers the 2,000,000 km limit). */
export function cleanOdometer(value: string): string {
  return value.replace(/\D/g, '').slice(0, 7);
}

/** Whether the mechanic has entered anything: such a form must not be lost to an update's reload. */
export function hasRepairInput(values: RepairFormValues): boolean {
  return (
    values.kode_id !== EMPTY_REPAIR_FORM.kode_id ||
    values.odometer !== EMPTY_REPAIR_FORM.odometer ||
    values.repair_type_id !== EMPTY_REPAIR_FORM.repair_type_id ||
    values.consented !== EMPTY_REPAIR_FORM.consented
  );
}

export function isValidKodeId(value: string): boolean {
  return KODE_ID_PATTERN.test(value);
}

export function parseOdometer(value: string): number | undefined {
  return /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The new-entry form and the correction dialog: the contract's repairForm checks the reading as a number. */
export function useRepairForm(initial: RepairFormValues | (() => RepairFormValues)) {
  return useContractForm(repairForm, initial, {
    input: (values) => ({ ...values, odometer: parseOdometer(values.odometer) }),
  });
}

export interface VehicleDetails {
  vin: string | null;
  brand: string | null;
  model: string | null;
  year: number | null;
}

/**
 * The details an entry carries from a vehicle the server described. The wire's vehicle calls the model
 * `name`, the spec's word, which the API keeps; the entry, the server's registry and the form call it
 * `model`, the word a garage uses. This is where the PWA turns one into the other, once.
 */
export function entryVehicleDetails(vehicle: Pick<Vehicle, 'vin' | 'brand' | 'name' | 'year'>): VehicleDetails {
  return { vin: vehicle.vin, brand: vehicle.brand, model: vehicle.name, year: vehicle.year };
}

/** The body of POST /repairs (recorded_at is added by the outbox). Call only with valid values. */
export function toRepairInput(values: RepairFormValues, vehicle: VehicleDetails | null): RepairInput {
  return {
    kode_id: values.kode_id,
    odometer: parseOdometer(values.odometer) ?? 0,
    repair_type_id: values.repair_type_id,
    consented: true,
    note: '',
    vin: vehicle?.vin ?? null,
    brand: vehicle?.brand ?? null,
    model: vehicle?.model ?? null,
    year: vehicle?.year ?? null,
  };
}

export type RepairFormState = ReturnType<typeof useRepairForm>;
