/**
 * The dashboard form's rules (docs/PRODUCT.md#validation-rules), from the shared contract, with the exact French
 * messages of the specification. Validation runs on every change; a message shows once its field
 * has been touched or a submit was attempted.
 */
import type { MessageDescriptor } from '@lingui/core';
import { fieldErrors, KODE_ID_LENGTH, KODE_ID_PATTERN, repairForm, type ErrorCode } from '../../../contract';
import { ERROR_MESSAGES } from '../../lib/error-messages';
import type { RepairInput } from '../../lib/sync';

export interface RepairFormValues {
  kodeId: string;
  /** Digits as typed; parsed on validation. */
  odometer: string;
  repairTypeId: string;
  consented: boolean;
}

export const EMPTY_REPAIR_FORM: RepairFormValues = { kodeId: '', odometer: '', repairTypeId: '', consented: false };

export type RepairField = 'kode_id' | 'odometer' | 'repair_type_id' | 'consented';
export const REPAIR_FIELDS: readonly RepairField[] = ['kode_id', 'odometer', 'repair_type_id', 'consented'];
export type RepairFormErrors = Partial<Record<RepairField, ErrorCode>>;

/** 'Veuillez saisir un KODE ID valide', also the Find toast (docs/PRODUCT.md#messages-and-toasts). */
export const kodeIdInvalidMessage = ERROR_MESSAGES.kode_id_invalid;

/**
 * The words under a field: the shared catalogue, whose French texts are docs/PRODUCT.md#validation-rules's
 * ('Veuillez saisir un KODE ID valide', 'Veuillez saisir un kilometrage valide',
 * 'Veuillez choisir un type de panne', 'Veuillez confirmer les informations avant de soumettre').
 */
export function fieldMessage(code: ErrorCode): MessageDescriptor {
  return ERROR_MESSAGES[code];
}

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
    values.kodeId !== EMPTY_REPAIR_FORM.kodeId ||
    values.odometer !== EMPTY_REPAIR_FORM.odometer ||
    values.repairTypeId !== EMPTY_REPAIR_FORM.repairTypeId ||
    values.consented !== EMPTY_REPAIR_FORM.consented
  );
}

export function isValidKodeId(value: string): boolean {
  return KODE_ID_PATTERN.test(value);
}

export function parseOdometer(value: string): number | undefined {
  return /^\d+$/.test(value) ? Number(value) : undefined;
}

export function validateRepairForm(values: RepairFormValues): RepairFormErrors {
  return fieldErrors(repairForm, {
    kode_id: values.kodeId,
    odometer: parseOdometer(values.odometer),
    repair_type_id: values.repairTypeId,
    consented: values.consented,
  }) as RepairFormErrors;
}

export interface VehicleDetails {
  vin: string | null;
  brand: string | null;
  model: string | null;
  year: number | null;
}

/** The body of POST /repairs (recorded_at is added by the outbox). Call only with valid values. */
export function toRepairInput(values: RepairFormValues, vehicle: VehicleDetails | null): RepairInput {
  return {
    kode_id: values.kodeId,
    odometer: parseOdometer(values.odometer) ?? 0,
    repair_type_id: values.repairTypeId,
    consented: true,
    note: '',
    vin: vehicle?.vin ?? null,
    brand: vehicle?.brand ?? null,
    model: vehicle?.model ?? null,
    year: vehicle?.year ?? null,
  };
}
