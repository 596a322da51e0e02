/**
 * Retry timing for the outbox (docs/ARCHITECTURE.md#the-offline-model-in-practice): exponential backoff with full jitter.
 * The n-th failed attempt waits a random time between 0 and min(cap, base × 2^(n−1)), so a
 * workshop full of tablets coming back online does not hit the server in step.
 */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  /** A floor, so a random draw of 0 never turns into a busy loop. */
  minMs: number;
}

/** The delay before the next attempt, given how many attempts have failed so far (1 after the first). */
export function backoffDelay(failedAttempts: number, random: () => number, policy: BackoffPolicy): number {
  const exponent = Math.max(0, failedAttempts - 1);
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(exponent, 30));
  return Math.max(policy.minMs, Math.floor(random() * ceiling));
}
