/**
 * The outbox's way to the server, for the pages' sender and the service worker's: POST /repairs under
 * the entry's Idempotency-Key, bounded by SYNC_POLICY.sendTimeoutMs rather than the client's default,
 * which is meant for the screens' requests.
 */
import { postRepair } from '../api/post-repair';
import type { RepairTransport } from './engine';
import { SYNC_POLICY } from './policy';

export const postOutboxEntry: RepairTransport = (row) =>
  postRepair(row.key, row.entry, { timeoutMs: SYNC_POLICY.sendTimeoutMs });
