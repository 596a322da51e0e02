/**
 * Where each kind of refusal parks an entry until the mechanic acts
 * (docs/ARCHITECTURE.md#the-entries-module): refused, or in conflict when the server holds the entry's
 * key with other values. Its words are refusals.ts's. No words here: the sender (in the page and in the
 * service worker) and the screens' first load import it.
 */
import type { EntryRefusalCode } from '../../../contract';

/**
 * Refused: the mechanic corrects the entry (sent again under a new key) or discards it.
 * In conflict: the mechanic records the entry as a correction of the stored repair, or discards it.
 */
export type ParkedState = 'refused' | 'in_conflict';

export const PARKS_AS: Record<EntryRefusalCode, ParkedState> = {
  repair_type_not_found: 'refused',
  idempotency_conflict: 'in_conflict',
  repair_not_found: 'refused',
  already_corrected: 'refused',
  correction_window_closed: 'refused',
  correction_vehicle_changed: 'refused',
  correction_recorded_at_changed: 'refused',
  vehicle_retired: 'refused',
};

/** The state a refusal parks an entry in; a reason the table does not know (a field's check) parks it as refused. */
export function parksAs(reason: string | undefined): ParkedState {
  return reason !== undefined && Object.hasOwn(PARKS_AS, reason) ? PARKS_AS[reason as EntryRefusalCode] : 'refused';
}
