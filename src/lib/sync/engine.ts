/**
 * The outbox sender (docs/ARCHITECTURE.md#the-offline-model-in-practice). Insert writes to the outbox first; the engine then
 * sends what is due, one sender across tabs, a vehicle's entries in the mechanic's order, a few
 * vehicles at a time, and only under the session of the partner who recorded them.
 *
 * Everything it touches from the outside is injected (clock and timers, random source, keys, transport,
 * lock, session), so tests drive it step by step. Its waits and limits are SYNC_POLICY's.
 */
import type { OutboxEntry, OutboxError, PortalDatabase } from '../db';
import { randomUuid } from '../uuid';
import { backoffDelay } from './backoff';
import {
  classifySend,
  deliveryOf,
  lastAttemptFoundNoNetwork,
  type Delivery,
  type SendOutcome,
  type TransportResult,
} from './classify';
import type { SenderLock } from './lock';
import {
  acknowledge,
  addToOutbox,
  claimForSending,
  discardRejected,
  markRejected,
  outboxEntry,
  parkUntilSignIn,
  partnerOutbox,
  recoverInterrupted,
  releaseAfterSignIn,
  releaseClaim,
  replaceConflictWithCorrection,
  replaceRejected,
  scheduleRetry,
  vehicleQueues,
  type Claim,
  type CorrectionInput,
  type RepairInput,
} from './outbox';
import { SYNC_POLICY } from './policy';

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

const systemScheduler: Scheduler = {
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
  onError?: (error: unknown) => void;
  /**
   * Entries wait on the tablet: one was just written, or a pass left some to be tried again later. The
   * page asks the browser for a background sync here (background.ts), so they leave even if the tab
   * closes meanwhile (docs/ARCHITECTURE.md#the-offline-model-in-practice).
   */
  onWaiting?: () => void;
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

/** 'no-network': to be retried like 'retry', and nothing came back (see lastAttemptFoundNoNetwork). */
type SendResult = SendOutcome['kind'] | 'no-network' | 'skipped';

/** Why a pass stopped sending before it ran out of entries to send. */
type Halt = 'unauthorized' | 'lost-lock' | 'stopped';

/** One read of the outbox being sent: what is left of each vehicle's queue, and what is under way. */
interface SendWindow {
  queues: Map<string, OutboxEntry[]>;
  /** Entries sent in this pass so far: each goes at most once per pass, so one that failed holds its vehicle back. */
  tried: Set<string>;
  /**
   * The last send to finish got no answer: perhaps the network is gone, so no new send starts until
   * another one in flight is answered (the network is there after all) or the pass ends.
   */
  unanswered: boolean;
  /** The send in flight is the probe (see SyncEngine.probe). */
  probing: boolean;
  /** The send under way for each vehicle: at most one per vehicle, at most `concurrency` in all. */
  inFlight: Map<string, Promise<{ vehicle: string; result: SendResult }>>;
}

/** After an 'unauthorized' answer, nothing of this partner goes until the next sign-in. */
function waitsForSignIn(rows: readonly OutboxEntry[]): boolean {
  return rows.some((row) => row.state === 'waiting_for_sign_in');
}

export class SyncEngine {
  private readonly db: PortalDatabase;
  private readonly scheduler: Scheduler;
  private readonly random: () => number;
  private readonly uuid: () => string;

  private running: Promise<void> | null = null;
  private again = false;
  private force = false;
  private timer: unknown = null;
  private stopped = false;
  /**
   * The entry whose send last found no network, while the network is taken to be down
   * (docs/ARCHITECTURE.md#the-offline-model-in-practice): it alone goes, at the end of its backoff,
   * which doubles at each try, and the other entries are left as they are. Without this, every
   * vehicle's entry would go again at its own backoff: a tablet offline for hours would keep writing
   * to the outbox, and every screen reading it (the history, the indicator) would read it again each
   * time. Any answer, or a kick that says the network may be back (online, visible, start, sign-in),
   * ends it.
   */
  private probe: string | null = null;
  /** An Insert (or a manual send) does not wait for the probe's backoff: the next pass sends it at once. */
  private probeNow = false;

  constructor(private readonly options: SyncEngineOptions) {
    this.db = options.db;
    this.scheduler = options.scheduler ?? systemScheduler;
    this.random = options.random ?? Math.random;
    this.uuid = options.uuid ?? randomUuid;
  }

  /**
   * Asks for a sending pass. Passes never overlap in one engine: a kick during a pass runs one more
   * pass after it. The promise settles when a pass that started after this kick has finished.
   */
  kick(reason: KickReason = 'manual'): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (FORCING_REASONS.has(reason)) {
      this.force = true;
      this.probe = null;
    }
    if (reason === 'insert' || reason === 'manual') this.probeNow = this.probe !== null;
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

  /**
   * Insert: the entry is in the outbox (one transaction) before anything is sent; then wait a while for
   * the first attempt: the answer says whether the server has it, refused it, or whether it stays
   * queued on the tablet (offline, slow, or behind an older entry).
   */
  /** `recordedAt`: now, unless the entry corrects a reading taken earlier (it keeps that reading's moment). */
  async submit(partnerId: string, input: RepairInput, recordedAt?: string): Promise<SubmitOutcome> {
    const entry = await addToOutbox(this.db, {
      key: this.uuid(),
      partnerId,
      input,
      recordedAt: recordedAt ?? new Date(this.scheduler.now()).toISOString(),
    });
    this.options.onWaiting?.();
    return this.outcomeOf(entry);
  }

  /** A rejected entry, corrected by the mechanic, goes again under a new key with its original recorded_at. */
  async resubmit(partnerId: string, key: string, input: RepairInput): Promise<SubmitOutcome | null> {
    const entry = await replaceRejected(this.db, { key, newKey: this.uuid(), partnerId, input });
    if (!entry) return null;
    this.options.onWaiting?.();
    return this.outcomeOf(entry);
  }

  /**
   * An entry refused because the server holds its key with other values, recorded instead as a
   * correction of that stored repair: a new key, the stored repair's recorded_at.
   */
  async correctConflict(
    partnerId: string,
    key: string,
    input: CorrectionInput,
    recordedAt: string,
  ): Promise<SubmitOutcome | null> {
    const entry = await replaceConflictWithCorrection(this.db, {
      key,
      newKey: this.uuid(),
      partnerId,
      input,
      recordedAt,
    });
    if (!entry) return null;
    this.options.onWaiting?.();
    return this.outcomeOf(entry);
  }

  discard(partnerId: string, key: string): Promise<boolean> {
    return discardRejected(this.db, key, partnerId);
  }

  /** A partner signed in: their entries that waited for it go again. */
  async resume(partnerId: string): Promise<void> {
    await releaseAfterSignIn(this.db, partnerId);
    await this.kick('sign-in');
  }

  private async outcomeOf(entry: OutboxEntry): Promise<SubmitOutcome> {
    let handle: unknown = null;
    const timeout = new Promise<void>((resolve) => {
      handle = this.scheduler.setTimeout(resolve, SYNC_POLICY.firstAnswerWaitMs);
    });
    await Promise.race([this.kick('insert'), timeout]);
    this.scheduler.clearTimeout(handle);
    const current = await outboxEntry(this.db, entry.key);
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
        this.schedule(SYNC_POLICY.errorRetryMs);
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
    if (!acquired) this.schedule(SYNC_POLICY.lockRetryMs);
  }

  /** False once the engine stopped or another partner (or nobody) is signed in: nothing more may go. */
  private sendingFor(partnerId: string): boolean {
    return !this.stopped && this.options.session.partnerId() === partnerId;
  }

  /**
   * One pass: reads the partner's outbox, sends what is due (see sendWindow), and reads it again only
   * when that window runs dry, to pick up entries added meanwhile; each entry is tried at most once
   * per pass.
   */
  private async drain(partnerId: string, force: boolean, keepAlive: () => Promise<boolean>): Promise<void> {
    await recoverInterrupted(this.db);
    const tried = new Set<string>();
    for (;;) {
      if (!this.sendingFor(partnerId) || !(await keepAlive())) return;
      const rows = await partnerOutbox(this.db, partnerId);
      if (waitsForSignIn(rows)) break;
      // A probe sent by another tab meanwhile, corrected or discarded: nothing to probe with any more.
      if (!rows.some((row) => row.key === this.probe && row.state === 'pending')) this.probe = null;
      const window: SendWindow = {
        queues: vehicleQueues(rows),
        tried,
        unanswered: false,
        probing: false,
        inFlight: new Map(),
      };
      const sent = await this.sendWindow(window, partnerId, force, keepAlive);
      if (sent === 'lost-lock' || sent === 'stopped') return;
      if (sent === 'unauthorized' || sent === 0) break;
    }
    await this.scheduleNext(partnerId);
  }

  /**
   * One loop over the vehicles: start the oldest entry free to go of each vehicle not in flight, up to
   * `concurrency` sends, wait for any one to finish, and again; a slot freed by one vehicle goes at once
   * to the next entry due. Ends when nothing is in flight and nothing more may go. Resolves to how many
   * sends were made, or why it stopped early (the sends in flight are awaited all the same).
   */
  private async sendWindow(
    window: SendWindow,
    partnerId: string,
    force: boolean,
    keepAlive: () => Promise<boolean>,
  ): Promise<number | Halt> {
    let sent = 0;
    let halt: Halt | null = null;
    for (;;) {
      if (!window.unanswered) halt ??= await this.startSends(window, partnerId, force, keepAlive);
      if (window.inFlight.size === 0) return halt ?? sent;
      const { vehicle, result } = await Promise.race(window.inFlight.values());
      window.inFlight.delete(vehicle);
      sent += 1;
      halt ??= this.afterSend(window, vehicle, result);
    }
  }

  /** Fills the free slots with the oldest entries free to go; says why sending must stop, if it must. */
  private async startSends(
    window: SendWindow,
    partnerId: string,
    force: boolean,
    keepAlive: () => Promise<boolean>,
  ): Promise<Halt | null> {
    // While the network is taken to be down, one entry probes it.
    while (window.inFlight.size < (this.probe ? 1 : SYNC_POLICY.concurrency)) {
      if (!this.sendingFor(partnerId)) return 'stopped';
      const next = this.oldestSendable(window, force);
      if (!next) return null;
      window.probing = this.probe !== null;
      window.tried.add(next.row.key);
      if (!(await keepAlive())) return 'lost-lock';
      window.inFlight.set(next.vehicle, this.sendFor(next.vehicle, next.row.key, partnerId));
    }
    return null;
  }

  private async sendFor(vehicle: string, key: string, partnerId: string) {
    return { vehicle, result: await this.sendOne(key, partnerId) };
  }

  /**
   * What a finished send means for its vehicle's queue, and whether the pass must stop. An entry that is
   * not done stays at the head of its queue, tried: it holds its vehicle back for the rest of the pass.
   */
  private afterSend(window: SendWindow, vehicle: string, result: SendResult): Halt | null {
    // Done with this entry (a refused one is parked and holds nothing back): its vehicle's next may go.
    if (result === 'stored' || result === 'rejected') window.queues.get(vehicle)?.shift();
    if (result === 'no-network') {
      window.unanswered = true;
      this.probe = window.queues.get(vehicle)?.[0]?.key ?? null;
    } else if (result !== 'skipped') {
      window.unanswered = false;
      this.probe = null;
      if (window.probing) {
        // The probe was answered: the network is back, as if the browser had said so. The entries that
        // found none go in a pass right after this one, without waiting out their backoff.
        window.probing = false;
        this.force = true;
        this.again = true;
      }
    }
    return result === 'unauthorized' ? 'unauthorized' : null;
  }

  /**
   * The oldest entry free to go: due, at the head of its vehicle's queue, and not tried in this pass. A
   * vehicle in flight has none: its head is the entry being sent, and the queue moves on only once that
   * one is done (afterSend).
   */
  private oldestSendable(window: SendWindow, force: boolean): { vehicle: string; row: OutboxEntry } | null {
    const now = this.scheduler.now();
    let best: { vehicle: string; row: OutboxEntry } | null = null;
    for (const [vehicle, [head]] of window.queues) {
      // While probing, the probe alone may go: due, or at once after an Insert.
      if (!head || window.tried.has(head.key) || (this.probe && head.key !== this.probe)) continue;
      if (this.probe && this.probeNow) {
        this.probeNow = false;
        return { vehicle, row: head };
      }
      if (!this.isDue(head, now, force)) continue;
      if (!best || head.seq < best.row.seq) best = { vehicle, row: head };
    }
    return best;
  }

  private isDue(row: OutboxEntry, now: number, force: boolean): boolean {
    if (row.state !== 'pending') return false;
    if (row.nextAttemptAt <= now) return true;
    return force && lastAttemptFoundNoNetwork(row);
  }

  private async sendOne(key: string, partnerId: string): Promise<SendResult> {
    const claim = await claimForSending(this.db, key, partnerId);
    if (!claim) return 'skipped';
    if (this.options.session.partnerId() !== partnerId) {
      // Another partner signed in meanwhile: never send under their session.
      await releaseClaim(this.db, claim);
      return 'skipped';
    }
    return this.settle(claim, classifySend(await this.send(claim.row)));
  }

  /** Writes the outcome down; each write changes the entry only if the claim still holds. */
  private async settle(claim: Claim, outcome: SendOutcome): Promise<SendResult> {
    switch (outcome.kind) {
      case 'stored':
        await acknowledge(this.db, claim, outcome.record);
        return 'stored';
      case 'retry':
        await this.retryLater(claim, outcome.error, outcome.retryAfterMs);
        return lastAttemptFoundNoNetwork({ lastError: outcome.error }) ? 'no-network' : 'retry';
      case 'rejected':
        await markRejected(this.db, claim, outcome.error);
        return 'rejected';
      case 'unauthorized':
        return this.unauthorized(claim, outcome.error);
    }
  }

  private async unauthorized(claim: Claim, error: OutboxError): Promise<SendResult> {
    if (this.options.session.offline()) {
      // The client's refresh could not reach the server: not a refusal, try again later.
      await this.retryLater(claim, error);
      return 'retry';
    }
    // Not parked when the partner signed in again after the request left: it goes again, under the new session.
    return (await parkUntilSignIn(this.db, claim, error)) ? 'unauthorized' : 'retry';
  }

  private retryLater(claim: Claim, error: OutboxError, retryAfterMs?: number) {
    const delay = retryAfterMs ?? backoffDelay(claim.row.attempts + 1, this.random, SYNC_POLICY.backoff);
    return scheduleRetry(this.db, claim, error, this.scheduler.now() + delay);
  }

  /** The transport, bounded in time and never throwing. */
  private async send(row: OutboxEntry): Promise<Delivery> {
    let handle: unknown = null;
    const timedOut = new Promise<Delivery>((resolve) => {
      handle = this.scheduler.setTimeout(
        () => resolve({ kind: 'network', message: 'timeout' }),
        SYNC_POLICY.sendTimeoutMs,
      );
    });
    try {
      return await Promise.race([this.options.transport(row).then(deliveryOf), timedOut]);
    } catch (error) {
      return { kind: 'network', message: error instanceof Error ? error.message : String(error) };
    } finally {
      this.scheduler.clearTimeout(handle);
    }
  }

  /** Wakes up when the earliest waiting entry of this partner (the probe, while there is one) is due. */
  private async scheduleNext(partnerId: string): Promise<void> {
    const rows = await partnerOutbox(this.db, partnerId);
    if (waitsForSignIn(rows)) return;
    let next = Number.POSITIVE_INFINITY;
    for (const [head] of vehicleQueues(rows).values()) {
      if (head?.state === 'pending' && (this.probe === null || head.key === this.probe)) {
        next = Math.min(next, head.nextAttemptAt);
      }
    }
    if (!Number.isFinite(next)) return;
    this.schedule(Math.max(0, next - this.scheduler.now()));
    this.options.onWaiting?.();
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
