/**
 * What the entry form does with the tablet's database: look a vehicle up, judge a reading, queue the
 * entry. The form loads this module when it first needs it (or once the first screen is on show), so
 * that Dexie is not part of the dashboard's first screen (docs/ARCHITECTURE.md#start-up).
 */
export { lookupVehicle } from './vehicles';
export { checkReading } from '../../../lib/entries/timeline';
export { discardRepair, submitRepair } from '../../../lib/entries';
