/**
 * What the sender tells the outbox once a send is over (docs/ARCHITECTURE.md#the-entries-module): the
 * answer, classified (classify.ts), becomes the entry's next state (outbox.ts, transition.ts).
 */
import type { OutboxError, PortalDatabase } from '../db';
import { backoffDelay } from './backoff';
import { lastAttemptFoundNoNetwork, type SendOutcome } from './classify';
import { acknowledge, markRejected, parkUntilSignIn, scheduleRetry, type Claim } from './outbox';
import { SYNC_POLICY } from './policy';

/** 'no-network': to be retried like 'retry', and nothing came back (see lastAttemptFoundNoNetwork). */
export type SendResult = SendOutcome['kind'] | 'no-network' | 'skipped';

export interface OutcomeContext {
  /** The session stands on the cached user: the server could not be reached to renew it. */
  offline: boolean;
  now(): number;
  random(): number;
}

/**
 * Writes down what happened to a send: the entry moves as the answer says (transition.ts), and only if
 * the sender's claim on it still holds. Resolves to what the sender needs to know for the rest of its pass.
 */
export async function recordOutcome(
  db: PortalDatabase,
  claim: Claim,
  outcome: SendOutcome,
  context: OutcomeContext,
): Promise<SendResult> {
  switch (outcome.kind) {
    case 'stored':
      await acknowledge(db, claim, outcome.record);
      return 'stored';
    case 'retry':
      await retryLater(db, claim, outcome.error, context, outcome.retryAfterMs);
      return lastAttemptFoundNoNetwork({ lastError: outcome.error }) ? 'no-network' : 'retry';
    case 'rejected':
      await markRejected(db, claim, outcome.error);
      return 'rejected';
    case 'unauthorized':
      return unauthorized(db, claim, outcome.error, context);
  }
}

async function unauthorized(
  db: PortalDatabase,
  claim: Claim,
  error: OutboxError,
  context: OutcomeContext,
): Promise<SendResult> {
  if (context.offline) {
    // The client's refresh could not reach the server: not a refusal, try again later.
    await retryLater(db, claim, error, context);
    return 'retry';
  }
  // Not parked when the partner signed in again after the request left: it goes again, under the new session.
  return (await parkUntilSignIn(db, claim, error)) ? 'unauthorized' : 'retry';
}

function retryLater(
  db: PortalDatabase,
  claim: Claim,
  error: OutboxError,
  context: OutcomeContext,
  retryAfterMs?: number,
): Promise<void> {
  const delay = retryAfterMs ?? backoffDelay(claim.row.attempts + 1, context.random, SYNC_POLICY.backoff);
  return scheduleRetry(db, claim, error, context.now() + delay);
}
