/**
 * A bulkhead (docs/API.md#photo-traffic): a costly kind of call (a photo's bytes going in or out) runs
 * at most `perProcess` at a time in this process and `perKey` at a time for one key (one partner).
 * A call over either limit waits its turn in a short queue, for at most `maxWaitMs`; when the queue
 * is full, for everyone or for its key, or the wait runs out, it is refused with BulkheadFull, which
 * the route answers 503 with Retry-After. One garage's flood thus fills its own share and the
 * queue's, never the event loop or the memory every other garage needs.
 */

export interface BulkheadLimits {
  /** Calls running at once in the process. */
  perProcess: number;
  /** Calls running at once for one key. */
  perKey: number;
  /** Calls waiting their turn, for every key together; one more is refused at once. */
  queue: number;
  /** Calls waiting their turn for one key; one more is refused at once. */
  queuePerKey: number;
  /** How long a call may wait for its turn before it is refused. */
  maxWaitMs: number;
}

/** Why a call was refused: the queue was full, or its turn did not come in time. */
export class BulkheadFull extends Error {
  constructor(readonly why: 'queue_full' | 'waited_too_long') {
    super(`bulkhead: ${why}`);
    this.name = 'BulkheadFull';
  }
}

/** Gives the call's place back; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  key: string;
  admit(release: Release): void;
  refuse(error: BulkheadFull): void;
  timer: NodeJS.Timeout;
}

export class Bulkhead {
  private running = 0;
  private readonly runningByKey = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(readonly limits: BulkheadLimits) {}

  /**
   * Resolves with a Release once the call may run; rejects with BulkheadFull when it may not. An
   * aborted signal (the client went away while waiting) takes the call out of the queue.
   */
  enter(key: string, signal?: AbortSignal): Promise<Release> {
    if (this.mayRun(key)) return Promise.resolve(this.start(key));
    const queuedForKey = this.waiting.filter((waiter) => waiter.key === key).length;
    if (this.waiting.length >= this.limits.queue || queuedForKey >= this.limits.queuePerKey) {
      return Promise.reject(new BulkheadFull('queue_full'));
    }
    return new Promise<Release>((resolve, reject) => {
      const leave = () => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        clearTimeout(waiter.timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        leave();
        reject(new BulkheadFull('waited_too_long'));
      };
      const waiter: Waiter = {
        key,
        admit: (release) => {
          leave();
          resolve(release);
        },
        refuse: (error) => {
          leave();
          reject(error);
        },
        timer: setTimeout(() => waiter.refuse(new BulkheadFull('waited_too_long')), this.limits.maxWaitMs),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Calls running and waiting now, for the logs and the tests. */
  load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private mayRun(key: string): boolean {
    return this.running < this.limits.perProcess && (this.runningByKey.get(key) ?? 0) < this.limits.perKey;
  }

  private start(key: string): Release {
    this.running += 1;
    this.runningByKey.set(key, (this.runningByKey.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      const left = (this.runningByKey.get(key) ?? 1) - 1;
      if (left > 0) this.runningByKey.set(key, left);
      else this.runningByKey.delete(key);
      this.admitWaiting();
    };
  }

  /** The longest-waiting calls whose key has room go next: a key at its limit lets others pass. */
  private admitWaiting(): void {
    for (let i = 0; i < this.waiting.length && this.running < this.limits.perProcess;) {
      const waiter = this.waiting[i]!;
      if (this.mayRun(waiter.key)) waiter.admit(this.start(waiter.key));
      else i += 1;
    }
  }
}
