/**
 * The sender's vocabulary (engine.ts): what it is given (transport, session, lock, clock), what starts
 * a pass, and the states it moves through. Types and small pure helpers only.
 */
import { lastAttemptFoundNoNetwork } from './classify';
import { isQueued } from './entry-state';
import type { OutboxEntry, PortalDatabase } from '../db';
import type { SendOutcome, TransportResult } from './classify';
import type { SenderLock } from './lock';
import type { PhotoTransport } from './photo-sender';
import type { SendResult } from './send-outcome';

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
export const FORCING_REASONS: ReadonlySet<KickReason> = new Set(['start', 'online', 'visible', 'sign-in']);

/** Why a pass stopped sending before it ran out of entries to send. */
export type Halt = 'unauthorized' | 'lost-lock' | 'stopped';

/** One read of the outbox being sent: what is left of each vehicle's queue, and what is under way. */
export interface SendWindow {
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

/** After an 'unauthorized' answer, nothing of this partner goes until the next sign-in. */
export function waitsForSignIn(rows: readonly OutboxEntry[]): boolean {
  return rows.some((row) => row.state === 'waiting_for_sign_in');
}

/** The sender's own timer: it wakes up by itself at `dueAt` (the earliest retry due, or a retry after a failure). */
export interface Wake {
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
export interface Probe {
  key: string;
  atOnce: boolean;
}

/** What the running pass leaves for after it: nothing, one more pass, or one more that cuts network backoffs short. */
export type NextPass = 'none' | 'again' | 'again-forced';

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
export function afterPasses(probe: Probe | null, wake: Wake | null): SenderState {
  if (!wake) return { kind: 'idle' };
  return probe ? { kind: 'probing', probe, wake } : { kind: 'waiting', wake };
}

/**
 * The oldest entry free to go: due, at the head of its vehicle's queue, and not tried in this pass. A
 * vehicle in flight has none: its head is the entry being sent, and the queue moves on only once that
 * one is done. While probing, the probe alone may go: when due, or at once after an Insert (`atOnce`).
 */
export function nextToSend(
  window: Pick<SendWindow, 'queues' | 'tried'>,
  probe: Probe | null,
  now: number,
  force: boolean,
): { vehicle: string; row: OutboxEntry } | null {
  let best: { vehicle: string; row: OutboxEntry } | null = null;
  for (const [vehicle, [head]] of window.queues) {
    if (!head || window.tried.has(head.key) || (probe && head.key !== probe.key)) continue;
    if (probe?.atOnce) return { vehicle, row: head };
    if (!isDue(head, now, force)) continue;
    if (!best || head.seq < best.row.seq) best = { vehicle, row: head };
  }
  return best;
}

/** Queued and due: its backoff is over, or (`force`: the network may be back) its last try found no network. */
export function isDue(
  row: Pick<OutboxEntry, 'state' | 'nextAttemptAt' | 'lastError'>,
  now: number,
  force: boolean,
): boolean {
  if (!isQueued(row)) return false;
  if (row.nextAttemptAt <= now) return true;
  return force && lastAttemptFoundNoNetwork(row);
}
