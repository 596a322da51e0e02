/** The bulkhead that keeps one partner's photo transfers from taking every other call's turn (docs/API.md#photo-traffic). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Bulkhead, BulkheadFull, type BulkheadLimits, type Release } from '../../../server/http/bulkhead';

const LIMITS: BulkheadLimits = { perProcess: 3, perKey: 2, queue: 3, queuePerKey: 2, maxWaitMs: 1_000 };

/** Whether the promise has settled by the end of this turn, and how. */
async function settled<T>(promise: Promise<T>): Promise<'admitted' | 'refused' | 'waiting'> {
  let state: 'admitted' | 'refused' | 'waiting' = 'waiting';
  promise.then(
    () => (state = 'admitted'),
    () => (state = 'refused'),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return state;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Bulkhead', () => {
  it('runs at most perKey calls of one key and perProcess in all; the others wait their turn', async () => {
    const bulkhead = new Bulkhead(LIMITS);
    const a1 = await bulkhead.enter('a');
    await bulkhead.enter('a');
    const a3 = bulkhead.enter('a');
    expect(await settled(a3)).toBe('waiting');
    const b1 = await bulkhead.enter('b');
    const b2 = bulkhead.enter('b');
    expect(await settled(b2)).toBe('waiting');
    expect(bulkhead.load()).toEqual({ running: 3, waiting: 2 });

    a1();
    // a's room went back to a, which was first in line.
    expect(await settled(a3)).toBe('admitted');
    expect(await settled(b2)).toBe('waiting');
    b1();
    expect(await settled(b2)).toBe('admitted');
    expect(bulkhead.load()).toEqual({ running: 3, waiting: 0 });
  });

  it('lets a key with room pass a key at its limit in the queue', async () => {
    const bulkhead = new Bulkhead({ ...LIMITS, perProcess: 2, perKey: 1 });
    const a1 = await bulkhead.enter('a');
    const b1 = await bulkhead.enter('b');
    const a2 = bulkhead.enter('a');
    const c1 = bulkhead.enter('c');
    expect(await settled(a2)).toBe('waiting');
    expect(await settled(c1)).toBe('waiting');
    b1();
    expect(await settled(c1)).toBe('admitted');
    expect(await settled(a2)).toBe('waiting');
    (await c1)();
    expect(await settled(a2)).toBe('waiting');
    a1();
    expect(await settled(a2)).toBe('admitted');
  });

  it('refuses at once when the queue is full, for everyone or for the key', async () => {
    const bulkhead = new Bulkhead({ ...LIMITS, perProcess: 1, queue: 3, queuePerKey: 2 });
    await bulkhead.enter('a');
    const waiting = [bulkhead.enter('a'), bulkhead.enter('a')];
    await expect(bulkhead.enter('a')).rejects.toEqual(new BulkheadFull('queue_full'));
    waiting.push(bulkhead.enter('b'));
    await expect(bulkhead.enter('c')).rejects.toEqual(new BulkheadFull('queue_full'));
    for (const entry of waiting) expect(await settled(entry)).toBe('waiting');
  });

  it('refuses a call whose turn has not come within maxWaitMs, and one whose client went away', async () => {
    vi.useFakeTimers();
    const bulkhead = new Bulkhead(LIMITS);
    await bulkhead.enter('a');
    await bulkhead.enter('a');
    const late = bulkhead.enter('a');
    const gone = new AbortController();
    const abandoned = bulkhead.enter('a', gone.signal);
    late.catch(() => undefined);
    abandoned.catch(() => undefined);
    gone.abort();
    await expect(abandoned).rejects.toBeInstanceOf(BulkheadFull);
    expect(bulkhead.load().waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(LIMITS.maxWaitMs);
    await expect(late).rejects.toEqual(new BulkheadFull('waited_too_long'));
    expect(bulkhead.load()).toEqual({ running: 2, waiting: 0 });
  });

  it('gives a place back once, however often it is released', async () => {
    const bulkhead = new Bulkhead({ ...LIMITS, perKey: 1 });
    const release: Release = await bulkhead.enter('a');
    const next = bulkhead.enter('a');
    release();
    release();
    expect(await settled(next)).toBe('admitted');
    expect(bulkhead.load()).toEqual({ running: 1, waiting: 0 });
  });
});
