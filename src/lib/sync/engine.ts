/**
 * The outbox sender (docs/ARCHITECTURE.md#the-offline-model-in-practice). Insert writes to the outbox first; the engine then
 * sends what is due, one sender across tabs, a vehicle's entries in the mechanic's order, a few
 * vehicles at a time, and only under the session of the partner who recorded them.
 *
 * Everything it touches from the outside is injected (clock and timers, random source, transport,
 * lock, session), so tests drive it step by step.
 */
import type { OutboxEntry, PortalDatabase } from '../db';
import { randomUuid } from '../uuid';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import { classifySend, type SendOutcome, type TransportResult } from './classify';
import type { SenderLock } from './lock';
import {
  acknowledge,
  addToOutbox,
  claimForSending,
  discardRejected,
  markRejected,
  parkUntilSignIn,
  partnerOutbox,
  recoverInterrupted,
  releaseWaiting,
  replaceRejected,
  scheduleRetry,
  vehicleHeads,
  vehicleQueues,
  type RepairInput,
} from './outbox';

export type RepairTransport = (entry: OutboxEntry) => Promise<TransportResult>;

export interface SenderSession {
  /** The signed-in partner (also when signed in from the cache while offline), or null. */
  partnerId(): string | null;
  /** True while the session stands on the cached user because the server could not be reached. */
  offline(): boolean;
}

export interface Scheduler {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

export interface SyncEngineOptions {
  db: PortalDatabase;
  transport: RepairTransport;
  session: SenderSession;
  lock: SenderLock;
  scheduler?: Scheduler;
  random?: () => number;
  uuid?: () => string;
  backoff?: BackoffPolicy;
  /** Different vehicles sent at once. */
  concurrency?: number;
  /** A send that has not answered by then counts as a network failure (the entry stays and goes again). */
  sendTimeoutMs?: number;
  /** When another tab holds the lease, try again after this long. */
  lockRetryMs?: number;
  /** After an unexpected storage error, try again after this long. */
  errorRetryMs?: number;
  onError?: (error: unknown) => void;
}

export type KickReason = 'start' | 'online' | 'visible' | 'sign-in' | 'insert' | 'timer' | 'manual';

/**
 * Reasons that mean "the network may be back": entries that failed for lack of network are tried at
 * once instead of waiting out their backoff. Retry-After and 5xx backoffs are still honoured.
 */
const FORCING_REASONS: ReadonlySet<KickReason> = new Set(['start', 'online', 'visible', 'sign-in']);

export type SubmitOutcome =
  | { kind: 'stored'; entry: OutboxEntry }
  | { kind: 'queued'; entry: OutboxEntry }
  | { kind: 'rejected'; entry: OutboxEntry };

type SendResult = SendOutcome['kind'] | 'skipped';

export class SyncEngine {
  private readonly db: PortalDatabase;
  private readonly scheduler: Scheduler;
  private readonly random: () => number;
  private readonly uuid: () => string;
  private readonly backoff: BackoffPolicy;
  private readonly concurrency: number;
  private readonly sendTimeoutMs: number;
  private readonly lockRetryMs: number;
  private readonly errorRetryMs: number;

  private running: Promise<void> | null = null;
  private again = false;
  private force = false;
  private timer: unknown = null;
  private stopped = false;

  constructor(private readonly options: SyncEngineOptions) {
    this.db = options.db;
    this.scheduler = options.scheduler ?? systemScheduler;
    this.random = options.random ?? Math.random;
    this.uuid = options.uuid ?? randomUuid;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.sendTimeoutMs = options.sendTimeoutMs ?? 30_000;
    this.lockRetryMs = options.lockRetryMs ?? 5_000;
    this.errorRetryMs = options.errorRetryMs ?? 30_000;
  }

  /**
   * Asks for a sending pass. Passes never overlap in one engine: a kick during a pass runs one more
   * pass after it. The promise settles when a pass that started after this kick has finished.
   */
  kick(reason: KickReason = 'manual'): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (FORCING_REASONS.has(reason)) this.force = true;
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop();
    return this.running;
  }

  /** Settles when no pass is running. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }

  /** Insert: the entry is in the outbox (one transaction) before anything is sent. */
  async enqueue(partnerId: string, input: RepairInput): Promise<OutboxEntry> {
    const entry = await this.write(partnerId, input);
    void this.kick('insert');
    return entry;
  }

  private write(partnerId: string, input: RepairInput): Promise<OutboxEntry> {
    return addToOutbox(this.db, {
      key: this.uuid(),
      partnerId,
      input,
      recordedAt: new Date(this.scheduler.now()).toISOString(),
    });
  }

  /**
   * Insert, then wait up to `waitMs` for the first attempt: the answer says whether the server has
   * it, refused it, or whether it stays queued on the tablet (offline, slow, or behind an older entry).
   */
  async submit(partnerId: string, input: RepairInput, waitMs = 8_000): Promise<SubmitOutcome> {
    const entry = await this.write(partnerId, input);
    return this.outcomeOf(entry, waitMs);
  }

  /** A rejected entry, corrected by the mechanic, goes again under a new key with its original recorded_at. */
  async resubmit(partnerId: string, key: string, input: RepairInput, waitMs = 8_000): Promise<SubmitOutcome | null> {
    const entry = await replaceRejected(this.db, { key, newKey: this.uuid(), partnerId, input });
    if (!entry) return null;
    return this.outcomeOf(entry, waitMs);
  }

  discard(partnerId: string, key: string): Promise<boolean> {
    return discardRejected(this.db, key, partnerId);
  }

  /** A partner signed in: their entries that waited for it go again. */
  async resume(partnerId: string): Promise<void> {
    await releaseWaiting(this.db, partnerId);
    await this.kick('sign-in');
  }

  private async outcomeOf(entry: OutboxEntry, waitMs: number): Promise<SubmitOutcome> {
    let handle: unknown = null;
    const timeout = new Promise<void>((resolve) => {
      handle = this.scheduler.setTimeout(resolve, waitMs);
    });
    await Promise.race([this.kick('insert'), timeout]);
    this.scheduler.clearTimeout(handle);
    const current = await this.db.outbox.get(entry.key);
    if (!current) return { kind: 'stored', entry };
    if (current.state === 'rejected') return { kind: 'rejected', entry: current };
    return { kind: 'queued', entry: current };
  }

  private async loop(): Promise<void> {
    for (;;) {
      this.again = false;
      const force = this.force;
      this.force = false;
      try {
        await this.pass(force);
      } catch (error) {
        this.options.onError?.(error);
        this.schedule(this.errorRetryMs);
      }
      if (!this.again || this.stopped) {
        this.running = null;
        return;
      }
    }
  }

  private async pass(force: boolean): Promise<void> {
    const partnerId = this.options.session.partnerId();
    if (!partnerId) return;
    const acquired = await this.options.lock.run((keepAlive) => this.drain(partnerId, force, keepAlive));
    if (!acquired) this.schedule(this.lockRetryMs);
  }

  /**
   * One pass: reads the partner's outbox once, then keeps `concurrency` sends in flight, each vehicle's
   * entries one after the other in the mechanic's order (a sliding window: a slot freed by one vehicle
   * goes at once to the next entry due). The outbox is read again only when the window runs dry, to
   * pick up entries added meanwhile; each entry is tried at most once per pass.
   */
  private async drain(partnerId: string, force: boolean, keepAlive: () => Promise<boolean>): Promise<void> {
    await recoverInterrupted(this.db);
    const tried = new Set<string>();
    for (;;) {
      if (this.stopped || this.options.session.partnerId() !== partnerId) return;
      if (!(await keepAlive())) return;
      const rows = await partnerOutbox(this.db, partnerId);
      // After a 401 that a refresh could not cure, nothing of this partner goes until the next sign-in.
      if (rows.some((row) => row.state === 'waiting_for_sign_in')) break;
      const window = await this.sendWindow(vehicleQueues(rows), tried, partnerId, force, keepAlive);
      if (window === 'lost-lock' || window === 'stopped') return;
      if (window === 'unauthorized' || window === 0) break;
    }
    await this.scheduleNext(partnerId);
  }

  /**
   * Sends what is due from these per-vehicle queues, `concurrency` at a time. Resolves to how many
   * sends were made, or why it stopped early.
   */
  private async sendWindow(
    queues: Map<string, OutboxEntry[]>,
    tried: Set<string>,
    partnerId: string,
    force: boolean,
    keepAlive: () => Promise<boolean>,
  ): Promise<number | 'unauthorized' | 'lost-lock' | 'stopped'> {
    const inFlight = new Set<string>();
    /** Vehicles whose next entry may not go in this pass (it waits for a retry, or changed under us). */
    const held = new Set<string>();
    let sent = 0;
    let halt: 'unauthorized' | 'lost-lock' | 'stopped' | null = null;

    /** The vehicle whose next entry is the oldest one due and free to go. */
    const pick = (): [string, OutboxEntry] | null => {
      const now = this.scheduler.now();
      let best: [string, OutboxEntry] | null = null;
      for (const [vehicle, queue] of queues) {
        const head = queue[0];
        if (!head || inFlight.has(vehicle) || held.has(vehicle)) continue;
        if (tried.has(head.key) || !this.isDue(head, now, force)) {
          held.add(vehicle);
          continue;
        }
        if (!best || head.seq < best[1].seq) best = [vehicle, head];
      }
      return best;
    };

    const worker = async () => {
      for (;;) {
        if (halt) return;
        if (this.stopped || this.options.session.partnerId() !== partnerId) {
          halt = 'stopped';
          return;
        }
        const next = pick();
        if (!next) return;
        const [vehicle, row] = next;
        inFlight.add(vehicle);
        tried.add(row.key);
        if (!(await keepAlive())) {
          halt = 'lost-lock';
          return;
        }
        const result = await this.sendOne(row.key, partnerId);
        inFlight.delete(vehicle);
        sent += 1;
        if (result === 'stored' || result === 'rejected') {
          // Done with this entry (a refused one is parked and holds nothing back): its vehicle's next may go.
          queues.get(vehicle)?.shift();
        } else if (result === 'unauthorized') {
          halt = 'unauthorized';
        } else {
          held.add(vehicle);
        }
      }
    };

    // Each worker stops when nothing is free to go; a vehicle freed later is picked up by a worker
    // still running, so keep starting workers while some vehicle has work and fewer are running.
    const running = new Set<Promise<void>>();
    const start = () => {
      while (running.size < this.concurrency && !halt) {
        const candidate = pick();
        if (!candidate) break;
        const task: Promise<void> = worker().finally(() => running.delete(task));
        running.add(task);
        // worker() claims its vehicle before its first await, so the next pick() sees it taken.
      }
    };
    start();
    while (running.size > 0) {
      await Promise.race(running);
      start();
    }
    return halt ?? sent;
  }

  private isDue(row: OutboxEntry, now: number, force: boolean): boolean {
    if (row.state !== 'pending') return false;
    if (row.nextAttemptAt <= now) return true;
    return force && row.lastError?.code === 0;
  }

  private async sendOne(key: string, partnerId: string): Promise<SendResult> {
    const row = await claimForSending(this.db, key, partnerId);
    if (!row) return 'skipped';
    if (this.options.session.partnerId() !== partnerId) {
      // Another partner signed in meanwhile: never send under their session.
      await this.db.outbox.update(key, { state: 'pending' });
      return 'skipped';
    }
    const outcome = classifySend(await this.send(row));
    switch (outcome.kind) {
      case 'stored':
        await acknowledge(this.db, row, outcome.record);
        break;
      case 'retry':
        await this.retryLater(row, outcome.error, outcome.retryAfterMs);
        break;
      case 'unauthorized':
        if (this.options.session.offline()) {
          // The client's refresh could not reach the server: not a refusal, try again later.
          await this.retryLater(row, outcome.error);
          return 'retry';
        }
        await parkUntilSignIn(this.db, row, outcome.error);
        break;
      case 'rejected':
        await markRejected(this.db, row, outcome.error);
        break;
    }
    return outcome.kind;
  }

  private retryLater(row: OutboxEntry, error: { code: number; message: string }, retryAfterMs?: number) {
    const delay = retryAfterMs ?? backoffDelay(row.attempts + 1, this.random, this.backoff);
    return scheduleRetry(this.db, row, error, this.scheduler.now() + delay);
  }

  /** The transport, bounded in time and never throwing. */
  private async send(row: OutboxEntry): Promise<TransportResult> {
    let handle: unknown = null;
    const timedOut = new Promise<TransportResult>((resolve) => {
      handle = this.scheduler.setTimeout(
        () =>
          resolve({
            code: 0,
            status: 'error',
            error: { type: 'other', reason: 'network', message: 'timeout' },
          }),
        this.sendTimeoutMs,
      );
    });
    try {
      return await Promise.race([this.options.transport(row), timedOut]);
    } catch (error) {
      return {
        code: 0,
        status: 'error',
        error: { type: 'other', reason: 'network', message: error instanceof Error ? error.message : String(error) },
      };
    } finally {
      this.scheduler.clearTimeout(handle);
    }
  }

  /** Wakes up when the earliest waiting entry of this partner is due. */
  private async scheduleNext(partnerId: string): Promise<void> {
    const rows = await partnerOutbox(this.db, partnerId);
    if (rows.some((row) => row.state === 'waiting_for_sign_in')) return;
    const next = vehicleHeads(rows)
      .filter((row) => row.state === 'pending')
      .reduce((earliest, row) => Math.min(earliest, row.nextAttemptAt), Number.POSITIVE_INFINITY);
    if (Number.isFinite(next)) this.schedule(Math.max(0, next - this.scheduler.now()));
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.clearTimer();
    this.timer = this.scheduler.setTimeout(() => {
      this.timer = null;
      void this.kick('timer');
    }, ms);
  }

  private clearTimer() {
    if (this.timer !== null) this.scheduler.clearTimeout(this.timer);
    this.timer = null;
  }
}
