/**
 * The outbox's way to the server, for the pages' sender and the service worker's: POST /repairs under
 * the entry's Idempotency-Key, then PUT of its photo, bounded by SYNC_POLICY.sendTimeoutMs rather than the client's default,
 * which is meant for the screens' requests.
 */
import { postRepair } from '../api/post-repair';
import { putRepairPhoto } from '../api/repair-photo';
import type { RepairTransport } from './engine-types';
import type { PhotoTransport } from './photo-sender';
import { SYNC_POLICY } from './policy';

export const postOutboxEntry: RepairTransport = (row) =>
  postRepair(row.key, row.entry, { timeoutMs: SYNC_POLICY.sendTimeoutMs });

/** A stored repair's photo, bounded by the same send timeout. */
export const putOutboxPhoto: PhotoTransport = (repairId, photo) =>
  putRepairPhoto(repairId, photo.blob, { timeoutMs: SYNC_POLICY.sendTimeoutMs });
