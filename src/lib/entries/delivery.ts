/**
 * One send of an entry through the transport (the API client, or a test's double), bounded in time
 * and never throwing: what came back, or that nothing did. Kept out of classify.ts, which the first
 * screen's sync status imports.
 */
import type { OutboxEntry } from '../db';
import { deliveryOf, type Delivery, type TransportResult } from './classify';
import type { Scheduler } from './engine-types';
import { SYNC_POLICY } from './policy';

/** Posts the entry through the transport, bounded in time (SYNC_POLICY.sendTimeoutMs) and never throwing. */
export async function deliver(
  transport: (row: OutboxEntry) => Promise<TransportResult>,
  row: OutboxEntry,
  timers: Pick<Scheduler, 'setTimeout' | 'clearTimeout'>,
): Promise<Delivery> {
  let handle: unknown = null;
  const timedOut = new Promise<Delivery>((resolve) => {
    handle = timers.setTimeout(() => resolve({ kind: 'network', message: 'timeout' }), SYNC_POLICY.sendTimeoutMs);
  });
  try {
    return await Promise.race([transport(row).then(deliveryOf), timedOut]);
  } catch (error) {
    return { kind: 'network', message: error instanceof Error ? error.message : String(error) };
  } finally {
    timers.clearTimeout(handle);
  }
}
