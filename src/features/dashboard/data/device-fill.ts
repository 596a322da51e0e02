/**
 * Signing in fills the tablet with what the dashboard shows: the partner's newest repairs, their
 * statistics and the repair types, fetched at once and kept in IndexedDB. A mechanic whose network
 * drops a minute after signing in still sees the history and the numbers, not an empty screen.
 */
import { refreshHistory } from '../../../lib/entries/history';
import { refreshRepairTypes } from './repair-types';
import { refreshStatistics } from './statistics-cache';

export async function fillDevice(): Promise<void> {
  await Promise.all([refreshHistory(), refreshStatistics(), refreshRepairTypes().catch(() => false)]);
}
