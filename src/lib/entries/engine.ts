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
import { isQueued, waitsForMechanic } from './entry-state';
import type { SenderLock } from './lock';
import {
  acknowledge,
  addToOutbox,
  claimForSending,
  discardRejected,
  markRejected,
  parkUntilSignIn,
  recoverInterrupted,
  releaseAfterSignIn,
  releaseClaim,
  replaceConflictWithCorrection,
  replaceRejected,
  scheduleRetry,
  type Claim,
  type CorrectionInput,
  type NewPhoto,
  type RepairInput,
} from './outbox';
import { outboxEntry, partnerOutbox, vehicleQueues } from './outbox-queries';
import { nextPhotoDue, sendDuePhotos, type PhotoTransport } from './photo-sender';
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
  /** The odometer photos' uploads; without it, photos wait on the tablet (photo-sender.ts). */
  photoTransport?: PhotoTransport;
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
  /** Each send of an entry as it starts and as it ends (the page's sync status follows them: status.ts). */
  observer?: SendObserver;
  /**
   * The browser says it has no network (navigator.onLine): a pass then sends one entry, and the others
   * only once one is answered. Offline, each send writes the outbox twice (its claim, its retry), and
   * every screen reading the outbox reads it again each time.
   */
  networkDown?: () => boolean;
}

export interface SendObserver {
  started(): void;
  /** `at`: epoch ms, once the outcome is written down. */
  ended(outcome: SendOutcome, at: number): void;
}

export type KickReason = 'start' | 'online' | 'visible' | 'sign-in' | 'insert' | 'timer' | 'manual';

/**
 * Reasons that mean "the network may be back": entries that failed for lack of network are tried at
 * once instead of waiting out their backoff. Retry-After and 5xx backoffs are still honoured.
 */
const FORCING_REASONS: ReadonlySet<KickReason> = new Set(['start', 'online', 'visible', 'sign-in']);

/** `photoLeftOut`: the tablet had no room for the entry's photo, so the entry was kept without it. */
export type SubmitOutcome = (
  | { kind: 'stored'; entry: OutboxEntry }
  | { kind: 'queued'; entry: OutboxEntry }
  | { kind: 'rejected'; entry: OutboxEntry }
) & { photoLeftOut?: boolean };

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
  /** The send in flight is the probe (see Probe). */
  probing: boolean;
  /** A send of this pass was answered: the network is there, whatever the browser says. */
  answered: boolean;
  /** The send under way for each vehicle: at most one per vehicle, at most `concurrency` in all. */
  inFlight: Map<string, Promise<{ vehicle: string; result: SendResult }>>;
}

/** IndexedDB out of room (Dexie wraps the browser's error, keeping its name in `inner`). */
function isQuotaError(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = (current as { inner?: unknown }).inner) {
    if (current.name === 'QuotaExceededError') return true;
  }
  return false;
}

/** After an 'unauthorized' answer, nothing of this partner goes until the next sign-in. */
function waitsForSignIn(rows: readonly OutboxEntry[]): boolean {
  return rows.some((row) => row.state === 'waiting_for_sign_in');
}

/** The sender's own timer: it wakes up by itself at `dueAt` (the earliest retry due, or a retry after a failure). */
interface Wake {
  timer: unknown;
  dueAt: number;
}

/**
 * While the network is taken to be down (docs/ARCHITECTURE.md#the-offline-model-in-practice), the entry
 * whose send last found no network: it alone goes, at the end of its backoff, which doubles at each try,
 * and the other entries are left as they are. Without this, every vehicle's entry would go again at its
 * own backoff: a tablet offline for hours would keep writing to the outbox, and every screen reading it
 * would read it again each time. Any answer, or a kick that says the network may be back, ends it.
 * `atOnce`: an Insert (or a manual send) does not wait for the probe's backoff.
 */
interface Probe {
  key: string;
  atOnce: boolean;
}

/** What the running pass leaves for after it: nothing, one more pass, or one more that cuts network backoffs short. */
type NextPass = 'none' | 'again' | 'again-forced';

/**
 * The sender's life, one state at a time: each transition below replaces it whole.
 * - idle: nothing runs, nothing is due; a trigger (kick) starts a pass.
 * - waiting: nothing runs; the sender wakes at `wake.dueAt`.
 * - probing: as waiting, with the network taken to be down: at its wake only the probe goes.
 * - sending: passes run one after the other until none is asked for (`next`); they may set the wake
 *   and the probe the next state keeps.
 * - stopped: for good; the pass still running, if any, finishes.
 */
export type SenderState =
  | { kind: 'idle' }
  | { kind: 'waiting'; wake: Wake }
  | { kind: 'probing'; probe: Probe; wake: Wake }
  | { kind: 'sending'; pass: Promise<void>; next: NextPass; probe: Probe | null; wake: Wake | null }
  | { kind: 'stopped'; pass: Promise<void> | null };

/** Where a pass leaves the sender: waiting for its wake (probing if the network is taken to be down), or idle. */
function afterPasses(probe: Probe | null, wake: Wake | null): SenderState {
  if (!wake) return { kind: 'idle' };
  return probe ? { kind: 'probing', probe, wake } : { kind: 'waiting', wake };
}

export class SyncEngine {
  private readonly db: PortalDatabase;
  private readonly scheduler: Scheduler;
  private readonly random: () => number;
  private readonly uuid: () => string;
  private state: SenderState = { kind: 'idle' };

  constructor(private readonly options: SyncEngineOptions) {
    this.db = options.db;
    this.scheduler = options.scheduler ?? systemScheduler;
    this.random = options.random ?? Math.random;
    this.uuid = options.uuid ?? randomUuid;
  }

  private get probe(): Probe | null {
    return this.state.kind === 'probing' || this.state.kind === 'sending' ? this.state.probe : null;
  }

  private get wake(): Wake | null {
    return this.state.kind === 'waiting' || this.state.kind === 'probing' || this.state.kind === 'sending'
      ? this.state.wake
      : null;
  }

  /**
   * Asks for a sending pass. Passes never overlap in one engine: a kick during a pass runs one more
   * pass after it. The promise settles when a pass that started after this kick has finished.
   */
  kick(reason: KickReason = 'manual'): Promise<void> {
    return this.askForPass(reason, this.wake);
  }

  /** Settles when no pass is running. */
  async idle(): Promise<void> {
    while (this.state.kind === 'sending' || (this.state.kind === 'stopped' && this.state.pass)) {
      await this.state.pass;
    }
  }

  /** For good: no pass starts after this one; the one running, if any, finishes (idle() waits for it). */
  stop(): void {
    if (this.state.kind === 'stopped') return;
    this.clearWake();
    this.state = { kind: 'stopped', pass: this.state.kind === 'sending' ? this.state.pass : null };
  }

  /**
   * Insert: the entry is in the outbox (one transaction) before anything is sent; then wait a while for
   * the first attempt: the answer says whether the server has it, refused it, or whether it stays
   * queued on the tablet (offline, slow, or behind an older entry).
   */
  /**
   * `recordedAt`: now, unless the entry corrects a reading taken earlier (it keeps that reading's moment).
   * `photo`: the odometer's, written with the entry and sent after it.
   */
  async submit(partnerId: string, input: RepairInput, recordedAt?: string, photo?: NewPhoto): Promise<SubmitOutcome> {
    const value = {
      key: this.uuid(),
      partnerId,
      input,
      recordedAt: recordedAt ?? new Date(this.scheduler.now()).toISOString(),
    };
    let entry: OutboxEntry;
    let photoLeftOut = false;
    try {
      entry = await addToOutbox(this.db, { ...value, photo });
    } catch (error) {
      // A photo never costs an entry: with no room for both, the reading is kept alone.
      if (!photo || !isQuotaError(error)) throw error;
      entry = await addToOutbox(this.db, value);
      photoLeftOut = true;
    }
    this.options.onWaiting?.();
    const outcome = await this.outcomeOf(entry);
    return photoLeftOut ? { ...outcome, photoLeftOut } : outcome;
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
    if (waitsForMechanic(current.state)) return { kind: 'rejected', entry: current };
    return { kind: 'queued', entry: current };
  }

  /**
   * Transition on a trigger: a reason that says the network may be back ends the probing and cuts
   * network backoffs short; an Insert sends the probe at once. Starts a pass, or asks the running one
   * for one more after it.
   */
  private askForPass(reason: KickReason, wake: Wake | null): Promise<void> {
    const state = this.state;
    if (state.kind === 'stopped') return Promise.resolve();
    const forced = FORCING_REASONS.has(reason);
    let probe = forced ? null : this.probe;
    if (probe && (reason === 'insert' || reason === 'manual')) probe = { ...probe, atOnce: true };
    if (state.kind === 'sending') {
      const next = forced || state.next === 'again-forced' ? 'again-forced' : 'again';
      this.state = { ...state, probe, wake, next };
      return state.pass;
    }
    let finished: () => void = () => undefined;
    const pass = new Promise<void>((resolve) => (finished = resolve));
    this.state = { kind: 'sending', pass, next: 'none', probe, wake };
    void this.runPasses(forced).then(finished);
    return pass;
  }

  /** One pass, then another as long as one was asked for meanwhile; then waiting, probing or idle. */
  private async runPasses(forced: boolean): Promise<void> {
    for (;;) {
      try {
        await this.pass(forced);
      } catch (error) {
        this.options.onError?.(error);
        this.wakeIn(SYNC_POLICY.errorRetryMs);
      }
      const state = this.state;
      if (state.kind === 'stopped') this.state = { kind: 'stopped', pass: null };
      if (state.kind !== 'sending') return;
      if (state.next === 'none') {
        this.state = afterPasses(state.probe, state.wake);
        return;
      }
      forced = state.next === 'again-forced';
      this.state = { ...state, next: 'none' };
    }
  }

  /** Transition when the sender's own timer fires: that wake is spent, and a pass is asked for. */
  private woke(): void {
    void this.askForPass('timer', null);
  }

  /** Transition: the sender wakes by itself in `ms` (replacing an earlier wake). Only a running pass sets one. */
  private wakeIn(ms: number): void {
    if (this.state.kind !== 'sending') return;
    this.clearWake();
    const timer = this.scheduler.setTimeout(() => this.woke(), ms);
    this.state = { ...this.state, wake: { timer, dueAt: this.scheduler.now() + ms } };
  }

  private clearWake(): void {
    const wake = this.wake;
    if (wake) this.scheduler.clearTimeout(wake.timer);
  }

  /** Transition within a pass: the probe (or none, the network being taken to be up) for what follows. */
  private probeWith(probe: Probe | null): void {
    if (this.state.kind === 'sending') this.state = { ...this.state, probe };
  }

  private async pass(forced: boolean): Promise<void> {
    const partnerId = this.options.session.partnerId();
    if (!partnerId) return;
    const acquired = await this.options.lock.run((keepAlive) => this.drain(partnerId, forced, keepAlive));
    if (!acquired) this.wakeIn(SYNC_POLICY.lockRetryMs);
  }

  /** False once the engine stopped or another partner (or nobody) is signed in: nothing more may go. */
  private sendingFor(partnerId: string): boolean {
    return this.state.kind !== 'stopped' && this.options.session.partnerId() === partnerId;
  }

  /**
   * One pass: reads the partner's outbox, sends what is due (see sendWindow), and reads it again only
   * when that window runs dry, to pick up entries added meanwhile; each entry is tried at most once
   * per pass.
   */
  private async drain(partnerId: string, force: boolean, keepAlive: () => Promise<boolean>): Promise<void> {
    await recoverInterrupted(this.db);
    const tried = new Set<string>();
    // Entries waiting for a sign-in hold the photos back too (their session is gone).
    let signInOwed = false;
    for (;;) {
      if (!this.sendingFor(partnerId) || !(await keepAlive())) return;
      const rows = await partnerOutbox(this.db, partnerId);
      signInOwed = waitsForSignIn(rows);
      if (signInOwed) break;
      // A probe sent by another tab meanwhile, corrected or discarded: nothing to probe with any more.
      if (!rows.some((row) => row.key === this.probe?.key && isQueued(row))) this.probeWith(null);
      const window: SendWindow = {
        queues: vehicleQueues(rows),
        tried,
        unanswered: false,
        probing: false,
        answered: false,
        inFlight: new Map(),
      };
      const sent = await this.sendWindow(window, partnerId, force, keepAlive);
      if (sent === 'lost-lock' || sent === 'stopped') return;
      signInOwed = sent === 'unauthorized';
      if (signInOwed || sent === 0) break;
    }
    if (!signInOwed && (await this.sendPhotos(partnerId, force, keepAlive)) === 'stopped') return;
    await this.scheduleNext(partnerId);
  }

  /**
   * After the readings, their photos (photo-sender.ts): only while the network is taken to be up (the
   * caller sends none while entries wait for a sign-in). A photo's 401 parks nothing: the next entry's
   * 401 does, if it is one.
   */
  private async sendPhotos(partnerId: string, force: boolean, keepAlive: () => Promise<boolean>) {
    const transport = this.options.photoTransport;
    if (!transport || this.probe) return 'done';
    return sendDuePhotos(this.db, partnerId, {
      transport,
      now: () => this.scheduler.now(),
      random: this.random,
      force,
      mayGoOn: async () => this.sendingFor(partnerId) && (await keepAlive()),
    });
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
    // While the network is taken to be down, one entry probes it; while the browser says it has none,
    // one entry goes first (offline, one claim and one retry written, not one per slot).
    const single = this.probe !== null || (!window.answered && (this.options.networkDown?.() ?? false));
    while (window.inFlight.size < (single ? 1 : SYNC_POLICY.concurrency)) {
      if (!this.sendingFor(partnerId)) return 'stopped';
      const next = this.oldestSendable(window, force);
      if (!next) return null;
      window.probing = this.probe !== null;
      window.tried.add(next.row.key);
      if (!(await keepAlive())) return 'lost-lock';
      window.inFlight.set(next.vehicle, this.sendVehicleHead(next.vehicle, next.row.key, partnerId));
    }
    return null;
  }

  /** Transition within a pass: the probe was answered, so one more pass follows, cutting network backoffs short. */
  private networkBack(): void {
    if (this.state.kind === 'sending') this.state = { ...this.state, next: 'again-forced' };
  }

  /** Sends one entry of a vehicle; resolves to the vehicle with what became of the entry. */
  private async sendVehicleHead(vehicle: string, key: string, partnerId: string) {
    return { vehicle, result: await this.claimAndSend(key, partnerId) };
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
      const key = window.queues.get(vehicle)?.[0]?.key;
      this.probeWith(key ? { key, atOnce: this.probe?.atOnce ?? false } : null);
    } else if (result !== 'skipped') {
      window.unanswered = false;
      window.answered = true;
      this.probeWith(null);
      if (window.probing) {
        // The probe was answered: the network is back, as if the browser had said so. The entries that
        // found none go in a pass right after this one, without waiting out their backoff.
        window.probing = false;
        this.networkBack();
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
      const probe = this.probe;
      if (!head || window.tried.has(head.key) || (probe && head.key !== probe.key)) continue;
      if (probe?.atOnce) {
        this.probeWith({ ...probe, atOnce: false });
        return { vehicle, row: head };
      }
      if (!this.isDue(head, now, force)) continue;
      if (!best || head.seq < best.row.seq) best = { vehicle, row: head };
    }
    return best;
  }

  private isDue(row: OutboxEntry, now: number, force: boolean): boolean {
    if (!isQueued(row)) return false;
    if (row.nextAttemptAt <= now) return true;
    return force && lastAttemptFoundNoNetwork(row);
  }

  /** Claims the entry, posts it, and writes down the answer; 'skipped' when it was not this sender's to send. */
  private async claimAndSend(key: string, partnerId: string): Promise<SendResult> {
    const claim = await claimForSending(this.db, key, partnerId);
    if (!claim) return 'skipped';
    if (this.options.session.partnerId() !== partnerId) {
      // Another partner signed in meanwhile: never send under their session.
      await releaseClaim(this.db, claim);
      return 'skipped';
    }
    this.options.observer?.started();
    const outcome = classifySend(await this.post(claim.row));
    try {
      return await this.settle(claim, outcome);
    } finally {
      this.options.observer?.ended(outcome, this.scheduler.now());
    }
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

  /** Posts the entry through the transport, bounded in time (SYNC_POLICY.sendTimeoutMs) and never throwing. */
  private async post(row: OutboxEntry): Promise<Delivery> {
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
      if (head && isQueued(head) && (this.probe === null || head.key === this.probe.key)) {
        next = Math.min(next, head.nextAttemptAt);
      }
    }
    const photoDue = this.probe || !this.options.photoTransport ? null : await nextPhotoDue(this.db, partnerId);
    if (photoDue !== null) next = Math.min(next, photoDue);
    if (!Number.isFinite(next)) return;
    this.wakeIn(Math.max(0, next - this.scheduler.now()));
    this.options.onWaiting?.();
  }
}
