/** The outbox's POST: under its entry's Idempotency-Key, and given the whole of the policy's send timeout. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../../../../src/lib/api/client';
import { REQUEST_TIMEOUT_MS } from '../../../../src/lib/api/config';
import { SYNC_POLICY } from '../../../../src/lib/entries/policy';
import { postOutboxEntry } from '../../../../src/lib/entries/transport';
import { repairRecord } from '../../../support/records';
import { addToOutbox } from '../../../../src/lib/entries/outbox';
import { freshDatabase, repair } from './support';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

beforeEach(() => {
  vi.mocked(apiRequest).mockReset();
});

describe('the outbox transport', () => {
  it("asks the client to wait SYNC_POLICY.sendTimeoutMs, longer than the client's default", async () => {
    const row = await addToOutbox(freshDatabase(), {
      key: '00000000-0000-4000-8000-000000000001',
      partnerId: 'partner-a',
      input: repair('KODE000001', 1000),
      recordedAt: '2025-03-01T08:00:00.000Z',
    });
    const data = repairRecord({
      id: 'repair-1',
      vehicle: { kode_id: 'KODE000001' } as never,
      repair_type: { id: 'oil' } as never,
      odometer: 1000,
      recorded_at: row.entry.recorded_at,
      idempotency_key: row.key,
    });
    const answer = { code: 201, status: 'success' as const, data };
    vi.mocked(apiRequest).mockResolvedValue(answer);

    expect(await postOutboxEntry(row)).toBe(answer);
    expect(apiRequest).toHaveBeenCalledWith('partner', '/repairs', {
      endpoint: 'POST partner /repairs',
      method: 'POST',
      headers: { 'Idempotency-Key': row.key },
      body: row.entry,
      timeoutMs: SYNC_POLICY.sendTimeoutMs,
    });
    expect(SYNC_POLICY.sendTimeoutMs).toBeGreaterThan(REQUEST_TIMEOUT_MS);
  });

  it('the IndexedDB lease outlives a whole send: a live holder renews it before each one', () => {
    expect(SYNC_POLICY.leaseTtlMs).toBeGreaterThan(SYNC_POLICY.sendTimeoutMs);
  });
});
