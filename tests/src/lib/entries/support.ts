/** Test doubles for the outbox engine: a manual clock, a server that stores by Idempotency-Key, a session. */
import { expect } from 'vitest';
import type { RepairRecord, User } from '../../../../contract';
import type { OutboxEntry } from '../../../../src/lib/db';
import { PortalDatabase } from '../../../../src/lib/db';
import type { TransportFailure, TransportResult } from '../../../../src/lib/entries/classify';
import type { Scheduler, SenderSession, SyncEngine } from '../../../../src/lib/entries/engine';
import type { SenderLock } from '../../../../src/lib/entries/lock';
import { addToOutbox, type RepairInput } from '../../../../src/lib/entries/outbox';
import { repairRecord } from '../../../support/records';

let databases = 0;
export function freshDatabase(): PortalDatabase {
  databases += 1;
  return new PortalDatabase(`engine-test-${databases}-${Math.random().toString(36).slice(2)}`);
}

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

/** A clock that only moves when told to; timers fire in order as it moves. */
export class ManualScheduler implements Scheduler {
  time = Date.parse('2025-03-01T08:00:00.000Z');
  private timers: Timer[] = [];
  private nextId = 0;

  now = () => this.time;

  setTimeout = (callback: () => void, ms: number) => {
    this.nextId += 1;
    this.timers.push({ id: this.nextId, at: this.time + Math.max(0, ms), callback });
    return this.nextId;
  };

  clearTimeout = (handle: unknown) => {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  };

  /** Delays of the timers still set, from now. */
  pending(): number[] {
    return this.timers.map((timer) => timer.at - this.time).sort((a, b) => a - b);
  }

  /** Moves the clock forward, firing each timer at its time; `settle` runs after each one. */
  async advance(ms: number, settle: () => Promise<void> = flush): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.at - b.at)[0];
      if (!next || next.at > target) break;
      this.timers = this.timers.filter((timer) => timer.id !== next.id);
      this.time = next.at;
      next.callback();
      await settle();
    }
    this.time = target;
    await settle();
  }
}

export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

export class FakeSession implements SenderSession {
  constructor(
    public current: string | null = 'partner-a',
    public isOffline = false,
  ) {}
  partnerId = () => this.current;
  offline = () => this.isOffline;
}

/** Behaviours the server double can be told to show for the next calls. */
export type Behaviour =
  | 'store'
  | 'network'
  | 'hang'
  /** Stores the repair, then the answer is lost on the way back (the tablet sees a network failure). */
  | 'store-then-lose-answer'
  | { code: number; message?: string; reason?: string; fields?: Record<string, string>; retryAfterMs?: number };

export interface Call {
  key: string;
  /** The partner who recorded the entry. */
  partnerId: string;
  /** The partner whose session the request went under (the server stores it for them). */
  signedInAs: string | null;
  body: OutboxEntry['entry'];
}

/** POST /repairs as the real server does it: one repair per (partner, key), 200 on replay, 422 on another body. */
export class ServerDouble {
  readonly stored = new Map<string, { body: string; record: RepairRecord }>();
  readonly calls: Call[] = [];
  /** The HTTP status of each answer the tablet received (a lost or never-sent answer adds nothing). */
  readonly answers: number[] = [];
  readonly script: Behaviour[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Real milliseconds each answer takes, so concurrent senders overlap. */
  latencyMs = 0;
  /** The session requests go under (tests wire it to their FakeSession). */
  signedIn: () => string | null = () => null;
  /** While not null, requests wait here for `answerHeld()`. */
  private held: (() => void)[] | null = null;

  /** Requests from now on wait, unanswered, until `answerHeld()`. */
  holdAnswers() {
    this.held ??= [];
  }

  /** Lets every held request go on to its answer, and stops holding. */
  answerHeld() {
    const held = this.held ?? [];
    this.held = null;
    held.forEach((resume) => resume());
  }

  /** Settles once `count` requests are in flight; fails if the tablet never makes that many at once. */
  async whenInFlight(count: number): Promise<void> {
    for (let turn = 0; turn < 200 && this.inFlight < count; turn++) await flush();
    if (this.inFlight >= count) return;
    const seen = this.inFlight;
    this.answerHeld();
    throw new Error(`${seen} requests in flight, expected ${count}`);
  }

  next(...behaviours: Behaviour[]) {
    this.script.push(...behaviours);
    return this;
  }

  transport = (row: OutboxEntry): Promise<TransportResult> => this.receive(row);

  /** One request, answered as `behaviour` says, else as the script says (else stored). */
  async receive(row: OutboxEntry, behaviour?: Behaviour): Promise<TransportResult> {
    this.calls.push({ key: row.key, partnerId: row.partnerId, signedInAs: this.signedIn(), body: row.entry });
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const held = this.held;
      if (held) await new Promise<void>((resume) => held.push(resume));
      if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
      const result = this.respond(row, behaviour ?? this.script.shift() ?? 'store');
      if (!result) return await new Promise<TransportResult>(() => undefined);
      if (result.code !== 0) this.answers.push(result.code);
      return result;
    } finally {
      this.inFlight -= 1;
    }
  }

  /** The answer to one request, or null when none ever comes. */
  private respond(row: OutboxEntry, behaviour: Behaviour): TransportResult | null {
    if (behaviour === 'hang') return null;
    if (behaviour === 'network') return networkFailure();
    if (behaviour === 'store') return this.store(row);
    if (behaviour === 'store-then-lose-answer') {
      this.store(row);
      return networkFailure();
    }
    const result: TransportResult = {
      code: behaviour.code,
      status: 'error',
      error: {
        type: behaviour.code === 429 ? 'rate_limited' : behaviour.code === 401 ? 'auth' : 'validation',
        message: behaviour.message ?? `error ${behaviour.code}`,
        reason: behaviour.reason ?? 'invalid_request',
        ...(behaviour.fields ? { fields: behaviour.fields } : {}),
      },
    };
    return behaviour.retryAfterMs === undefined ? result : { ...result, retryAfterMs: behaviour.retryAfterMs };
  }

  store(row: OutboxEntry): TransportResult {
    const body = JSON.stringify(row.entry);
    const id = `${row.partnerId}:${row.key}`;
    const existing = this.stored.get(id);
    if (existing) {
      if (existing.body !== body) {
        return {
          code: 422,
          status: 'error',
          error: { type: 'conflict', reason: 'idempotency_conflict', message: 'conflict' },
        };
      }
      return { code: 200, status: 'success', data: existing.record };
    }
    const record: RepairRecord = repairRecord({
      id: `repair-${this.stored.size + 1}`,
      vehicle: { kode_id: row.entry.kode_id, vin: 'VIN', brand: 'Renault', name: 'Clio', year: 2019 },
      repair_type: { id: row.entry.repair_type_id, name: 'Vidange', name_ar: null, name_en: null },
      odometer: row.entry.odometer,
      note: row.entry.note ?? '',
      recorded_at: row.entry.recorded_at,
      created_at: new Date().toISOString(),
      idempotency_key: row.key,
    });
    this.stored.set(id, { body, record });
    return { code: 201, status: 'success', data: record };
  }

  keysSent(): string[] {
    return this.calls.map((call) => call.key);
  }
}

export function networkFailure(): TransportFailure {
  return { code: 0, status: 'error', error: { type: 'other', reason: 'network', message: 'Failed to fetch' } };
}

export function repair(kodeId: string, odometer: number, repairTypeId = 'oil'): RepairInput {
  return { kode_id: kodeId, odometer, repair_type_id: repairTypeId, consented: true, note: '' };
}

/** Web Locks semantics in one process: a waiting mutex. */
export function memoryLock(): SenderLock {
  let tail: Promise<void> = Promise.resolve();
  return {
    async run(task) {
      const previous = tail;
      let release = () => undefined as void;
      tail = new Promise<void>((resolve) => {
        release = resolve;
      });
      await previous;
      try {
        await task(async () => true);
      } finally {
        release();
      }
      return true;
    },
  };
}

/**
 * Insert without waiting for the first answer (submit waits for it): the entry goes into the outbox,
 * then the engine is kicked, as submit does.
 */
export function inserter(engine: SyncEngine, db: PortalDatabase, now: () => number, uuid: () => string) {
  return async (partnerId: string, input: RepairInput): Promise<OutboxEntry> => {
    const recordedAt = new Date(now()).toISOString();
    const entry = await addToOutbox(db, { key: uuid(), partnerId, input, recordedAt });
    void engine.kick('insert');
    return entry;
  };
}

export function sequentialUuids(prefix = '00000000-0000-4000-8000-'): () => string {
  let n = 0;
  return () => {
    n += 1;
    return `${prefix}${String(n).padStart(12, '0')}`;
  };
}

/**
 * A server whose answers the test gives one by one, in the order it chooses: each request waits until
 * `answer(key, ...)` is called for its key.
 */
export class AnswersByHand {
  private readonly waiting = new Map<string, { row: OutboxEntry; resolve: (result: TransportResult) => void }>();
  /** Stores what is answered 'store', as the real server would. */
  readonly server = new ServerDouble();
  /** The keys of the requests made, in order. */
  readonly asked: string[] = [];
  maxInFlight = 0;

  transport = (row: OutboxEntry): Promise<TransportResult> =>
    new Promise((resolve) => {
      this.asked.push(row.key);
      this.waiting.set(row.key, { row, resolve });
      this.maxInFlight = Math.max(this.maxInFlight, this.waiting.size);
    });

  /** The keys of the requests waiting for an answer, in the order they were made. */
  inFlight(): string[] {
    return [...this.waiting.keys()];
  }

  /** Settles once exactly these requests wait for an answer; fails if that never happens. */
  async whenInFlight(keys: readonly string[]): Promise<void> {
    const expected = JSON.stringify([...keys].sort());
    for (let turn = 0; turn < 200 && JSON.stringify(this.inFlight().sort()) !== expected; turn++) await flush();
    expect(this.inFlight().sort()).toEqual([...keys].sort());
  }

  answer(key: string, result: TransportResult | 'store'): void {
    const request = this.waiting.get(key);
    if (!request) throw new Error(`no request waits for ${key}`);
    this.waiting.delete(key);
    request.resolve(result === 'store' ? this.server.store(request.row) : result);
  }
}

export function unauthorized(): TransportResult {
  return { code: 401, status: 'error', error: { type: 'auth', reason: 'unauthorized', message: 'Session expirée' } };
}

/** A partner as the server describes them (sign-in and refresh answers). */
export const partnerUser = (id: string): User => ({
  id,
  full_name: id,
  email: `${id}@example.dz`,
  picture: null,
  role: 'partner',
  partner: { phone_number: '0555123456', location: { latitude: 36, longitude: 3 } },
});

/** The body of the `n`th entry of an outbox written by an older version (schema and upgrade tests). */
export function olderEntryBody(n: number, kodeId: string, recordedAt: string) {
  return {
    kode_id: kodeId,
    odometer: 1000 * n,
    repair_type_id: 'oil',
    consented: true,
    note: '',
    recorded_at: recordedAt,
  };
}
