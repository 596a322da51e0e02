/**
 * The network as a tablet's session code sees it, for the session tests (sign-out, a session ended
 * elsewhere): fetch answered by routes keyed "METHOD /api/…", every call recorded with its
 * Authorization header, or the network down; and a fresh page, whose session module starts anew while
 * the tablet's storage stays.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { db, type OutboxEntry } from '../../../src/lib/db';

export type Route = (init: RequestInit) => Response | Promise<Response>;

/** The API's envelope: success below 400, the error envelope from then on. */
export const json = (code: number, data: unknown) =>
  new Response(
    JSON.stringify(code < 400 ? { code, status: 'success', data } : { code, status: 'error', error: data }),
    { status: code, headers: { 'content-type': 'application/json' } },
  );

export interface TabletNetwork {
  up: boolean;
  /** The calls made, as "METHOD /api/…". */
  calls: string[];
  /** Each call's Authorization header, in the same order. */
  authorizations: (string | null)[];
  routes: Map<string, Route>;
}

/** Stubs fetch for each test with the routes `initial` gives; the database and localStorage start empty. */
export function useTabletNetwork(initial: () => [string, Route][]): TabletNetwork {
  const network: TabletNetwork = { up: true, calls: [], authorizations: [], routes: new Map() };
  beforeEach(async () => {
    network.up = true;
    network.calls = [];
    network.authorizations = [];
    network.routes = new Map(initial());
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        const route = `${init.method ?? 'GET'} ${new URL(url, 'http://localhost').pathname}`;
        if (!network.up) throw new TypeError('Failed to fetch');
        network.calls.push(route);
        network.authorizations.push(new Headers(init.headers).get('Authorization'));
        const answer = network.routes.get(route);
        return answer ? answer(init) : json(404, { type: 'not_found', message: 'not found' });
      }),
    );
    await emptyTabletStorage();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  return network;
}

/** A tablet nobody used yet: every table of its database and its localStorage empty. */
export async function emptyTabletStorage() {
  await Promise.all(db.tables.map((table) => table.clear()));
  localStorage.clear();
}

/** A fresh page: the session module and its in-memory state start anew, the tablet's storage stays. */
export async function freshPage() {
  vi.resetModules();
  const session = await import('../../../src/lib/session');
  const { apiCall } = await import('../../../src/lib/api/call');
  return { ...session, apiCall };
}

/** An entry of `partnerId` waiting in the outbox under `key`. */
export function outboxEntry(partnerId: string, key: string): OutboxEntry {
  return {
    key,
    partnerId,
    entry: {
      kode_id: 'KODE000001',
      odometer: 45_000,
      repair_type_id: 'oil_change',
      consented: true,
      note: '',
      vin: 'VF1S1CD16RB267735',
      brand: 'Renault',
      model: 'Symbol',
      year: 2024,
      recorded_at: '2026-11-20T08:00:00.000Z',
    },
    state: 'queued',
    seq: 1,
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: '2026-11-20T08:00:00.000Z',
  };
}
