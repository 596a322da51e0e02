/**
 * Every wait and limit of the outbox sender, in one place (docs/ARCHITECTURE.md#the-offline-model-in-practice
 * and docs/PRODUCT.md's table of rules, which quote these numbers).
 */
import type { BackoffPolicy } from './backoff';

export interface SyncPolicy {
  /** Retries after a failure: exponential backoff with full jitter. */
  backoff: BackoffPolicy;
  /** Different vehicles sent at once. */
  concurrency: number;
  /** How long Insert waits for the first attempt's answer before saying the entry stays on the tablet. */
  firstAnswerWaitMs: number;
  /** A send that has not answered by then counts as a network failure (the entry stays and goes again). */
  sendTimeoutMs: number;
  /** When another tab holds the sender's lease, try again after this long. */
  lockRetryMs: number;
  /**
   * How long the IndexedDB lease (where Web Locks are missing) outlives its last renewal: longer than a
   * send's timeout, so a live holder renews it well before it lapses.
   */
  leaseTtlMs: number;
  /** After an unexpected storage error, try again after this long. */
  errorRetryMs: number;
}

export const SYNC_POLICY: SyncPolicy = {
  backoff: { baseMs: 2_000, capMs: 5 * 60_000, minMs: 500 },
  concurrency: 4,
  firstAnswerWaitMs: 8_000,
  sendTimeoutMs: 30_000,
  lockRetryMs: 5_000,
  leaseTtlMs: 60_000,
  errorRetryMs: 30_000,
};
