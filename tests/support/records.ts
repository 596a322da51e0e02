/** Repairs as the server answers them, for tests and benches: plausible and uncorrected unless told. */
import type { RepairRecord } from '../../contract';

type Essentials = Pick<RepairRecord, 'id' | 'vehicle' | 'repair_type' | 'odometer' | 'recorded_at' | 'idempotency_key'>;

export function repairRecord(fields: Essentials & Partial<RepairRecord>): RepairRecord {
  return {
    note: '',
    verdict: 'plausible',
    reasons: [],
    odometer_anomaly: false,
    superseded_by: null,
    corrects: null,
    correction_reason: null,
    created_at: fields.recorded_at,
    ...fields,
  };
}
