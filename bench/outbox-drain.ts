/**
 * Figure 3, outbox drain: entries queued offline on the tablet (written into the app's IndexedDB
 * outbox, the shape Insert writes), then the browser goes back online and the app's own sync engine
 * sends them (it listens to `online`). Timed until the server holds them all; checked that each is
 * stored exactly once and that each vehicle's readings arrived in the order they were entered. Next
 * to it, in the same run, the server's own capacity for the same POST /repairs: autocannon with the
 * engine's concurrency (4 connections) and the same number of requests, each with its own
 * Idempotency-Key. The ratio is how much of the server's pace the client reaches.
 */
import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { SYNC_POLICY } from '../src/lib/entries/policy';
import { newBenchContext, signInThroughForm } from './lib/browser';
import { countRows, currentSeq, outboxRows, putRows, type QueuedRepair } from './lib/idb';
import { runLoad } from './lib/load';
import {
  allRepairs,
  apiLogin,
  demoKodeIds,
  demoRepairTypeIds,
  registerPartner,
  repairsTotal,
  type ApiSession,
} from './lib/portal';

/** The sync engine's own: different vehicles sent at once. */
export const ENGINE_CONCURRENCY = SYNC_POLICY.concurrency;

export interface DrainRun {
  entries: number;
  /** From going online until the server holds every entry. */
  drainMs: number;
  clientPerSecond: number;
  /** autocannon, same POST, same count, ENGINE_CONCURRENCY connections. */
  serverPerSecond: number;
  serverErrors: number;
  storedOnce: boolean;
  orderKept: boolean;
  /** POST /repairs as the page saw them: mean time per request, and how many were in flight on average. */
  clientRequestMs: number;
  meanInFlight: number;
}

declare global {
  interface Window {
    __benchRepairPosts?: { start: number; end: number }[];
  }
}

/** Bench-only instrumentation, injected before the app loads: times every POST /repairs the page makes. */
function timeRepairPosts() {
  const posts: { start: number; end: number }[] = [];
  window.__benchRepairPosts = posts;
  const original = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (init?.method !== 'POST' || !url.includes('/repairs')) return original(input, init);
    const start = performance.now();
    try {
      const response = await original(input, init);
      await response.clone().arrayBuffer();
      return response;
    } finally {
      posts.push({ start, end: performance.now() });
    }
  };
}

/** Repairs spread over the demo vehicles, each vehicle's odometer rising, recorded_at one second apart. */
function makeRepairs(count: number, startMs: number): QueuedRepair[] {
  const vehicles = demoKodeIds();
  const types = demoRepairTypeIds();
  return Array.from({ length: count }, (_, i) => ({
    kode_id: vehicles[i % vehicles.length]!,
    repair_type_id: types[i % types.length]!,
    odometer: 100_000 + i * 10,
    recorded_at: new Date(startMs + i * 1000).toISOString(),
  }));
}

async function waitForTotal(baseUrl: string, session: ApiSession, expected: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const total = await repairsTotal(baseUrl, session);
    if (total >= expected) return total;
    if (Date.now() > deadline) throw new Error(`server holds ${total} of ${expected} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function verify(queued: readonly QueuedRepair[], stored: Awaited<ReturnType<typeof allRepairs>>) {
  const key = (kodeId: string, odometer: number, recordedAt: string) =>
    `${kodeId}|${odometer}|${new Date(recordedAt).toISOString()}`;
  const storedKeys = stored.map((row) => key(row.vehicle.kode_id, row.odometer, row.recorded_at));
  const storedOnce =
    stored.length === queued.length &&
    new Set(storedKeys).size === stored.length &&
    queued.every((repair) => storedKeys.includes(key(repair.kode_id, repair.odometer, repair.recorded_at)));
  // Per vehicle: the order the server stored them in (created_at) is the order they were entered (recorded_at).
  const byVehicle = new Map<string, typeof stored>();
  for (const row of stored) byVehicle.set(row.vehicle.kode_id, [...(byVehicle.get(row.vehicle.kode_id) ?? []), row]);
  let orderKept = true;
  for (const rows of byVehicle.values()) {
    const byCreation = [...rows].sort(
      (a, b) =>
        Date.parse(a.created_at) - Date.parse(b.created_at) || Date.parse(a.recorded_at) - Date.parse(b.recorded_at),
    );
    for (let i = 1; i < byCreation.length; i++) {
      if (Date.parse(byCreation[i]!.recorded_at) < Date.parse(byCreation[i - 1]!.recorded_at)) orderKept = false;
      if (Date.parse(byCreation[i]!.created_at) === Date.parse(byCreation[i - 1]!.created_at)) orderKept = false;
    }
  }
  return { storedOnce, orderKept };
}

/** autocannon: `count` POST /repairs with the engine's concurrency, each with a fresh Idempotency-Key. */
async function serverCapacity(baseUrl: string, session: ApiSession, count: number) {
  const repairs = makeRepairs(count, Date.now() - 2 * count * 1000 - 3_600_000);
  let next = 0;
  return runLoad({
    url: `${baseUrl}/api/partner/repairs`,
    connections: ENGINE_CONCURRENCY,
    amount: count,
    method: 'POST',
    headers: {
      authorization: `Bearer ${session.accessToken}`,
      'content-type': 'application/json',
      'x-origin': baseUrl,
    },
    requests: [
      {
        setupRequest: (request) => {
          const repair = repairs[next % repairs.length]!;
          next += 1;
          return {
            ...request,
            headers: { ...request.headers, 'idempotency-key': crypto.randomUUID() },
            body: JSON.stringify({ ...repair, note: '', consented: true }),
          };
        },
      },
    ],
  });
}

export async function measureDrain(browser: Browser, baseUrl: string, entries: number): Promise<DrainRun> {
  const account = await registerPartner(baseUrl, 'drain');
  const session = await apiLogin(baseUrl, account);
  const context = await newBenchContext(browser);
  try {
    const page = await context.newPage();
    await page.addInitScript(timeRepairPosts);
    await signInThroughForm(page, baseUrl, account);
    const partnerId = session.userId;

    await context.setOffline(true);
    // recorded_at in the past hour(s), so the whole batch is within the server's 90-day window.
    const queued = makeRepairs(entries, Date.now() - entries * 1000 - 60_000);
    await putRows(page, { outbox: outboxRows(partnerId, queued, (await currentSeq(page)) + 1) });
    if ((await countRows(page, 'outbox')) !== entries) throw new Error('the outbox did not take the entries');

    const started = Date.now();
    await context.setOffline(false);
    await waitForTotal(baseUrl, session, entries, 10 * 60_000);
    const drainMs = Date.now() - started;
    // Settle: the client acknowledges its last answers; nothing more may arrive.
    const deadline = Date.now() + 30_000;
    while ((await countRows(page, 'outbox')) > 0 && Date.now() < deadline) await page.waitForTimeout(100);
    const posts = await page.evaluate(() => window.__benchRepairPosts ?? []);
    const busyMs = posts.reduce((total, post) => total + (post.end - post.start), 0);
    const stored = await allRepairs(baseUrl, session);
    const { storedOnce, orderKept } = verify(queued, stored);

    const capacity = await serverCapacity(baseUrl, session, entries);
    return {
      entries,
      drainMs,
      clientPerSecond: entries / (drainMs / 1000),
      serverPerSecond: capacity.requestsPerSecond,
      serverErrors: capacity.errors,
      storedOnce,
      orderKept,
      clientRequestMs: posts.length > 0 ? busyMs / posts.length : 0,
      meanInFlight: busyMs / drainMs,
    };
  } finally {
    await context.close();
  }
}
