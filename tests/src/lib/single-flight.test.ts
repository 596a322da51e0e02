/**
 * One run at a time (src/lib/single-flight.ts): calls made while a run is under way share its promise,
 * the first call after it settles (resolved or rejected) starts a new one; singleFlightBy, one run at a
 * time per key.
 */
import { describe, expect, it, vi } from 'vitest';
import { singleFlight, singleFlightBy } from '../../../src/lib/single-flight';

/** A promise the test settles when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('singleFlight', () => {
  it('gives calls made while a run is under way the same promise, and runs the task once', async () => {
    const run = deferred<string>();
    const task = vi.fn(() => run.promise);
    const once = singleFlight(task);
    const first = once();
    const second = once();
    expect(second).toBe(first);
    expect(task).toHaveBeenCalledTimes(1);
    run.resolve('done');
    expect(await Promise.all([first, second])).toEqual(['done', 'done']);
  });

  it('starts a new run on the first call after the previous one resolved', async () => {
    let runs = 0;
    const once = singleFlight(async () => (runs += 1));
    expect(await once()).toBe(1);
    expect(await once()).toBe(2);
  });

  it('shares a failure with every caller of that run, then starts afresh', async () => {
    const failing = deferred<string>();
    const task = vi.fn().mockReturnValueOnce(failing.promise).mockResolvedValueOnce('recovered');
    const once = singleFlight<[], string>(task);
    const first = once();
    const second = once();
    failing.reject(new Error('offline'));
    await expect(first).rejects.toThrow('offline');
    await expect(second).rejects.toThrow('offline');
    expect(await once()).toBe('recovered');
    expect(task).toHaveBeenCalledTimes(2);
  });

  it('is free again by the time a caller resumes: a call made right after awaiting starts a new run', async () => {
    const task = vi.fn(async () => 'value');
    const once = singleFlight(task);
    await once();
    const next = once();
    expect(task).toHaveBeenCalledTimes(2);
    await next;
  });

  it('runs with the arguments of the call that started it; a call joining a run has its own ignored', async () => {
    const run = deferred<void>();
    const task = vi.fn((_partnerId: string) => run.promise);
    const once = singleFlight(task);
    const first = once('partner-a');
    const joined = once('partner-b');
    expect(joined).toBe(first);
    expect(task).toHaveBeenCalledExactlyOnceWith('partner-a');
    run.resolve();
    await first;
  });

  it('keeps separate helpers independent', async () => {
    const slow = deferred<string>();
    const a = singleFlight(() => slow.promise);
    const b = singleFlight(async () => 'b');
    const pending = a();
    expect(await b()).toBe('b');
    slow.resolve('a');
    expect(await pending).toBe('a');
  });
});

describe('singleFlightBy', () => {
  it('gives calls under one key the run under way, and starts a run of its own for another key', async () => {
    const runs = { a: deferred<string>(), b: deferred<string>() };
    const task = vi.fn((partnerId: 'a' | 'b') => runs[partnerId].promise);
    const perPartner = singleFlightBy((partnerId: 'a' | 'b') => partnerId, task);
    const first = perPartner('a');
    const joined = perPartner('a');
    const other = perPartner('b');
    expect(joined).toBe(first);
    expect(other).not.toBe(first);
    expect(task.mock.calls).toEqual([['a'], ['b']]);
    runs.a.resolve('for a');
    runs.b.resolve('for b');
    expect(await Promise.all([first, joined, other])).toEqual(['for a', 'for a', 'for b']);
  });

  it("frees a key once its run settles, resolved or rejected, leaving another key's run under way", async () => {
    const slow = deferred<string>();
    const task = vi
      .fn<(key: string) => Promise<string>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockReturnValueOnce(slow.promise)
      .mockResolvedValueOnce('again');
    const perKey = singleFlightBy((key: string) => key, task);
    await expect(perKey('a')).rejects.toThrow('offline');
    const running = perKey('b');
    const again = perKey('a');
    expect(again).not.toBe(running);
    expect(await again).toBe('again');
    expect(perKey('b')).toBe(running);
    expect(task).toHaveBeenCalledTimes(3);
    slow.resolve('b');
    await running;
  });
});
