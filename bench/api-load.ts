/**
 * Figure 5, the API under load (autocannon on loopback), on the embedded PGlite and on the
 * PostgreSQL server, the same server code: vehicle lookup, GET /repairs (the newest 100 of a partner
 * holding 300) and POST /repairs (a fresh Idempotency-Key per request). Requests per second, p50
 * and p99 latency, errors (connection errors, timeouts and non-2xx answers: must be 0). The partner
 * routes are not rate limited; the one login happens before the load.
 */
import crypto from 'node:crypto';
import type { LoadRun } from './lib/load';
import { runLoad } from './lib/load';
import {
  apiLogin,
  demoKodeIds,
  demoRepairTypeIds,
  postRepair,
  registerPartner,
  startBenchPortal,
  type ApiSession,
  type DatabaseKind,
} from './lib/portal';

export const ENDPOINTS = ['vehicle-lookup', 'list-repairs', 'create-repair'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

export interface ApiLoadOptions {
  connections: number;
  durationS: number;
  runs: number;
}

export type ApiLoadRuns = Record<Endpoint, LoadRun[]>;

async function seedRepairs(baseUrl: string, session: ApiSession, count: number): Promise<void> {
  const vehicles = demoKodeIds();
  const types = demoRepairTypeIds();
  const start = Date.now() - 24 * 3_600_000;
  for (let i = 0; i < count; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, (_, j) =>
        postRepair(baseUrl, session, {
          kode_id: vehicles[(i + j) % vehicles.length]!,
          repair_type_id: types[(i + j) % types.length]!,
          odometer: 50_000 + i + j,
          recorded_at: new Date(start + (i + j) * 60_000).toISOString(),
        }),
      ),
    );
  }
}

function load(baseUrl: string, session: ApiSession, endpoint: Endpoint, options: ApiLoadOptions) {
  const headers = { authorization: `Bearer ${session.accessToken}`, 'x-origin': baseUrl, accept: 'application/json' };
  const vehicles = demoKodeIds();
  const types = demoRepairTypeIds();
  let n = 0;
  switch (endpoint) {
    case 'vehicle-lookup':
      return runLoad({
        url: `${baseUrl}/api/partner/vehicles/${vehicles[0]}`,
        connections: options.connections,
        duration: options.durationS,
        headers,
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              path: `/api/partner/vehicles/${vehicles[n++ % vehicles.length]}`,
            }),
          },
        ],
      });
    case 'list-repairs':
      return runLoad({
        url: `${baseUrl}/api/partner/repairs`,
        connections: options.connections,
        duration: options.durationS,
        headers,
      });
    case 'create-repair': {
      // recorded_at one second apart going back from an hour ago: all distinct, all in the accepted window.
      const base = Date.now() - 3_600_000;
      return runLoad({
        url: `${baseUrl}/api/partner/repairs`,
        connections: options.connections,
        duration: options.durationS,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (request) => {
              const i = n++;
              return {
                ...request,
                headers: { ...request.headers, 'idempotency-key': crypto.randomUUID() },
                body: JSON.stringify({
                  kode_id: vehicles[i % vehicles.length],
                  repair_type_id: types[i % types.length],
                  odometer: 60_000 + i,
                  note: '',
                  consented: true,
                  recorded_at: new Date(base - (i % 3_000_000) * 1000).toISOString(),
                }),
              };
            },
          },
        ],
      });
    }
  }
}

/** Starts a portal on the database, seeds a partner with 300 repairs, and loads each endpoint `runs` times. */
export async function measureApiLoad(
  database: DatabaseKind,
  options: ApiLoadOptions,
  log: (line: string) => void,
): Promise<ApiLoadRuns> {
  const portal = await startBenchPortal(database);
  try {
    const session = await apiLogin(portal.url, await registerPartner(portal.url, `load-${database}`));
    await seedRepairs(portal.url, session, 300);
    const results: ApiLoadRuns = { 'vehicle-lookup': [], 'list-repairs': [], 'create-repair': [] };
    // A short warm-up per endpoint (JIT, connection pool, query plans), not counted.
    for (const endpoint of ENDPOINTS) await load(portal.url, session, endpoint, { ...options, durationS: 1 });
    for (let run = 0; run < options.runs; run++) {
      for (const endpoint of ENDPOINTS) {
        const result = await load(portal.url, session, endpoint, options);
        log(
          `  ${database} ${endpoint} run ${run + 1}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms, errors ${result.errors}`,
        );
        results[endpoint].push(result);
      }
    }
    return results;
  } finally {
    // autocannon closes its sockets at the end while the server may still be answering the last
    // requests: let those finish before the server shuts down.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await portal.stop();
  }
}
