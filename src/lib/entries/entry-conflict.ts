/**
 * One Idempotency-Key, two contents (docs/ARCHITECTURE.md#the-hand-over-file): what this tablet holds
 * under a key against what the server stored, or a hand-over file carries, under the same key. The
 * server stores a key once and answers 422 idempotency_conflict to another body, so such an entry is
 * never "already there": it is shown, field by field, to the mechanic.
 *
 * Compared: what the server keeps of an entry. The vehicle details a tablet sends along (vin, brand,
 * model, year) are ignored by the server (docs/API.md#post-repairs), and so here.
 */
import type { RepairEntry, RepairRecord } from '../../../contract';

/** An entry as the outbox and the hand-over file hold it. */
type QueuedEntry = RepairEntry & { recorded_at: string };

export const COMPARED_FIELDS = [
  'kode_id',
  'odometer',
  'repair_type_id',
  'recorded_at',
  'note',
  'corrects',
  'correction_reason',
] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

type ComparedValue = string | number | null;
type Comparable = Record<ComparedField, ComparedValue>;

/** One field that differs: this tablet's value, and the other side's (the server's, or the file's). */
export interface EntryDifference {
  field: ComparedField;
  here: ComparedValue;
  there: ComparedValue;
}

/** One side of a comparison: an entry (in an outbox, in a file), or the repair the server stored. */
export type EntryVersion = { entry: QueuedEntry } | { record: RepairRecord };

function comparable(version: EntryVersion): Comparable {
  if ('record' in version) {
    const { record } = version;
    return {
      kode_id: record.vehicle.kode_id.toUpperCase(),
      odometer: record.odometer,
      repair_type_id: record.repair_type.id,
      recorded_at: record.recorded_at,
      note: record.note ?? '',
      corrects: record.corrects ?? null,
      correction_reason: record.correction_reason ?? null,
    };
  }
  const { entry } = version;
  return {
    kode_id: entry.kode_id.trim().toUpperCase(),
    odometer: entry.odometer,
    repair_type_id: entry.repair_type_id,
    recorded_at: entry.recorded_at,
    note: entry.note ?? '',
    corrects: entry.corrects ?? null,
    correction_reason: entry.correction_reason ?? null,
  };
}

/** The same moment written two ways (the server writes its own ISO form) is the same moment. */
function sameValue(field: ComparedField, here: ComparedValue, there: ComparedValue): boolean {
  if (field === 'recorded_at' && typeof here === 'string' && typeof there === 'string') {
    return Date.parse(here) === Date.parse(there);
  }
  return here === there;
}

/** The fields that differ between what this tablet holds and the other version; empty: the same entry. */
export function entryDifferences(here: EntryVersion, there: EntryVersion): EntryDifference[] {
  const [mine, theirs] = [comparable(here), comparable(there)];
  return COMPARED_FIELDS.filter((field) => !sameValue(field, mine[field], theirs[field])).map((field) => ({
    field,
    here: mine[field],
    there: theirs[field],
  }));
}
