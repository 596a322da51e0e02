/** Repairs: the partner's history, statistics and the idempotent recording of a new one. */
export { createRepair, recordedAtInRange, type CorrectionRefusal, type CreateOutcome, type NewRepair } from './create';
export { judgeUnjudgedVehicles } from './judge';
export { vehicleReadings } from './readings';
export { findByIdempotencyKey, listRepairs, type StoredRepair } from './records';
export { partnerStatistics } from './statistics';
