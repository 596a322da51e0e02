/**
 * The outbox sender (docs/ARCHITECTURE.md#the-offline-model-in-practice): a scheduler. Insert writes to
 * the outbox first (entry-desk.ts); the engine then asks the outbox what is due, sends it, one sender
 * across tabs, a vehicle's entries in the mechanic's order, a few vehicles at a time, and only under
 * the session of the partner who recorded them, and tells the outbox what happened (send-outcome.ts).
 *
 * Everything it touches from the outside is injected (clock and timers, random source, keys, transport,
 * lock, session), so tests drive it step by step. Its waits and limits are SYNC_POLICY's.
 */
import type { OutboxEntry, PortalDatabase } from '../db';
import { randomUuid } from '../uuid';
import { classifySend } from './classify';
import { deliver } from './delivery';
import {
  afterPasses,
  nextToSend,
  FORCING_REASONS,
  systemScheduler,
  waitsForSignIn,
  type Halt,
  type KickReason,
  type Probe,
  type Scheduler,
  type SendWindow,
  type SenderState,
  type SyncEngineOptions,
  type Wake,
} from './engine-types';
import { correctConflictingEntry, insertEntry, resubmitEntry, type EntryDesk, type SubmitOutcome } from './entry-desk';
import { isQueued } from './entry-state';
import {
  claimForSending,
  discardRejected,
  recoverInterrupted,
  releaseAfterSignIn,
  releaseClaim,
  type CorrectionInput,
  type NewPhoto,
  type RepairInput,
} from './outbox';
import { partnerOutbox, vehicleQueues } from './outbox-queries';
import { nextPhotoDue, sendDuePhotos } from './photo-sender';
import { SYNC_POLICY } from './policy';
import { recordOutcome, type SendResult } from './send-outcome';

export type { KickReason, RepairTransport, Scheduler, SenderSession, SyncEngineOptions } from './engine-types';

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

  /** The mechanic's actions (entry-desk.ts), given what they need of this sender. */
  private get desk(): EntryDesk {
    return {
      db: this.db,
      uuid: this.uuid,
      scheduler: this.scheduler,
      kick: (reason) => this.kick(reason),
      onWaiting: () => this.options.onWaiting?.(),
    };
  }

  /** Insert (entry-desk.ts): `recordedAt` now unless it corrects an earlier reading; `photo` sent after it. */
  submit(partnerId: string, input: RepairInput, recordedAt?: string, photo?: NewPhoto): Promise<SubmitOutcome> {
    return insertEntry(this.desk, partnerId, input, recordedAt, photo);
  }

  /** A rejected entry, corrected by the mechanic, goes again under a new key with its original recorded_at. */
  resubmit(partnerId: string, key: string, input: RepairInput): Promise<SubmitOutcome | null> {
    return resubmitEntry(this.desk, partnerId, key, input);
  }

  /** An entry in conflict, recorded as a correction of the stored repair (a new key, its recorded_at). */
  correctConflict(
    partnerId: string,
    key: string,
    input: CorrectionInput,
    recordedAt: string,
  ): Promise<SubmitOutcome | null> {
    return correctConflictingEntry(this.desk, partnerId, key, input, recordedAt);
  }

  discard(partnerId: string, key: string): Promise<boolean> {
    return discardRejected(this.db, key, partnerId);
  }

  /** A partner signed in: their entries that waited for it go again. */
  async resume(partnerId: string): Promise<void> {
    await releaseAfterSignIn(this.db, partnerId);
    await this.kick('sign-in');
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

  /** The next entry to send (engine-types.ts: nextToSend); an Insert's probe goes at once, once. */
  private oldestSendable(window: SendWindow, force: boolean): { vehicle: string; row: OutboxEntry } | null {
    const probe = this.probe;
    const next = nextToSend(window, probe, this.scheduler.now(), force);
    if (next && probe?.atOnce) this.probeWith({ ...probe, atOnce: false });
    return next;
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
    const outcome = classifySend(await deliver(this.options.transport, claim.row, this.scheduler));
    try {
      return await recordOutcome(this.db, claim, outcome, {
        offline: this.options.session.offline(),
        now: () => this.scheduler.now(),
        random: this.random,
      });
    } finally {
      this.options.observer?.ended(outcome, this.scheduler.now());
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
