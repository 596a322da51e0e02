/**
 * Section 7 of the report, one garage's flood of photo transfers (issue 44): while one partner keeps 200 photo GETs
 * (2 MB each, no If-None-Match) and 40 uploads of 2 MB in flight, how late are the health probe and
 * another partner's vehicle lookups, how much memory does the server take, and does every photo call
 * get an answer (200, 201 or 503 with Retry-After) rather than hang? On the embedded PGlite and on
 * the PostgreSQL server, the same server code.
 *
 * The probes run on a thread of their own (a worker), so the flood's own work in this process does
 * not make them look late: each asks again as soon as it is answered, and notes how long it waited.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { PHOTO_MAX_BYTES } from '../contract';
import {
  apiLogin,
  postRepair,
  demoKodeIds,
  registerPartner,
  startBenchPortal,
  type ApiSession,
  type DatabaseKind,
} from './lib/portal';

export interface PhotoLoadOptions {
  readers: number;
  uploaders: number;
  durationS: number;
}

export interface PhotoLoadRun {
  database: DatabaseKind;
  photoBytes: number;
  health: LatencySummary;
  otherLookup: LatencySummary;
  /** Just started, with the set-up's few calls served. */
  startRssMb: number;
  /** After WARM_UP_CALLS photo reads and uploads, then 2 s of nothing: the figure growth is counted from. */
  idleRssMb: number;
  peakRssMb: number;
  /** Answers to the flood, by status ('error' for a request that failed or hung past 30 s). */
  reads: Record<string, number>;
  uploads: Record<string, number>;
  /** 503s without Retry-After: must be 0. */
  unavailableWithoutRetryAfter: number;
}

export interface LatencySummary {
  /** Answers by status: all must be 200. */
  statuses: Record<string, number>;
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Photo reads and uploads, one after the other, before the idle memory is read. */
export const WARM_UP_CALLS = 10;

export const PHOTO_LOAD_GOALS = { healthP99Ms: 100, otherLookupP99Ms: 300, rssGrowthMb: 100 } as const;

/** The heaviest photo the API takes: camera noise, its quality as high as stays under PHOTO_MAX_BYTES. */
async function heavyPhoto(): Promise<Uint8Array<ArrayBuffer>> {
  const noise = sharp({
    create: {
      width: 1600,
      height: 1200,
      channels: 3,
      background: { r: 0, g: 0, b: 0 },
      noise: { type: 'gaussian', mean: 128, sigma: 70 },
    },
  });
  const pixels = await noise.raw().toBuffer();
  let best: Buffer | null = null;
  for (const quality of [98, 96, 94, 92, 90, 85, 80]) {
    const jpeg = await sharp(pixels, { raw: { width: 1600, height: 1200, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
    if (jpeg.length <= PHOTO_MAX_BYTES) {
      best = jpeg;
      break;
    }
  }
  if (!best) throw new Error('no quality gives a photo under PHOTO_MAX_BYTES');
  return new Uint8Array(best);
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 'NaN');
  return kb / 1024;
}

function newRepair(baseUrl: string, session: ApiSession, kodeId: string, minutesAgo: number): Promise<string> {
  return postRepair(baseUrl, session, {
    kode_id: kodeId,
    repair_type_id: 'oil_change',
    odometer: 100_000 + (10_000 - minutesAgo),
    recorded_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  });
}

function putPhoto(baseUrl: string, session: ApiSession, repairId: string, photo: Uint8Array<ArrayBuffer>) {
  return fetch(`${baseUrl}/api/partner/repairs/${repairId}/photo`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${session.accessToken}`, 'x-origin': baseUrl, 'content-type': 'image/jpeg' },
    body: photo,
    signal: AbortSignal.timeout(30_000),
  });
}

/**
 * The probes' thread: plain JavaScript (a worker is not compiled by tsx). Each probe asks, waits for
 * the answer, notes the time, and asks again, until told to stop; then it posts every time it noted.
 */
const PROBE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { baseUrl, token, kodeIds } = workerData;
let stopping = false;
parentPort.on('message', () => (stopping = true));
async function loop(makeRequest) {
  const times = [];
  const statuses = {};
  while (!stopping) {
    const started = performance.now();
    let status = 'error';
    try {
      const response = await makeRequest();
      await response.arrayBuffer();
      status = String(response.status);
    } catch {}
    times.push(performance.now() - started);
    statuses[status] = (statuses[status] || 0) + 1;
  }
  return { times, statuses };
}
let n = 0;
Promise.all([
  loop(() => fetch(baseUrl + '/api/health/live', { signal: AbortSignal.timeout(30000) })),
  loop(() => fetch(baseUrl + '/api/partner/vehicles/' + kodeIds[n++ % kodeIds.length], {
    headers: { authorization: 'Bearer ' + token, 'x-origin': baseUrl, accept: 'application/json' },
    signal: AbortSignal.timeout(30000),
  })),
]).then(([health, lookup]) => parentPort.postMessage({ health, lookup }));
`;

interface ProbeTimes {
  times: number[];
  statuses: Record<string, number>;
}

function summarise({ times, statuses }: ProbeTimes): LatencySummary {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    statuses,
    count: sorted.length,
    p50Ms: round(at(0.5)),
    p99Ms: round(at(0.99)),
    maxMs: round(sorted.at(-1) ?? NaN),
  };
}

/**
 * Keeps `workers` clients asking until `until`, each as soon as it is answered, or after the
 * Retry-After of a 503; counts the answers by status.
 */
async function flood(workers: number, until: number, request: (worker: number) => Promise<Response>) {
  const statuses: Record<string, number> = {};
  let unavailableWithoutRetryAfter = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (Date.now() < until) {
        let status = 'error';
        let retryAfterS = 0;
        try {
          const response = await request(worker);
          await response.arrayBuffer();
          status = String(response.status);
          retryAfterS = Number(response.headers.get('retry-after') ?? 0);
          if (response.status === 503 && !retryAfterS) unavailableWithoutRetryAfter += 1;
        } catch {
          // A refused or reset connection, or a hang past the timeout.
        }
        statuses[status] = (statuses[status] ?? 0) + 1;
        // As the tablet's sender does: a client that ignored Retry-After would be a flood of
        // requests, not of photos, which no share of photo transfers can absorb (docs/API.md#photo-traffic).
        if (status === '503' && retryAfterS > 0) {
          await new Promise((resolve) =>
            setTimeout(resolve, Math.min(retryAfterS * 1000, Math.max(0, until - Date.now()))),
          );
        }
      }
    }),
  );
  return { statuses, unavailableWithoutRetryAfter };
}

export async function measurePhotoLoad(
  database: DatabaseKind,
  options: PhotoLoadOptions,
  log: (line: string) => void,
): Promise<PhotoLoadRun> {
  const photo = await heavyPhoto();
  const portal = await startBenchPortal(database);
  const baseUrl = portal.url;
  try {
    const flooder = await apiLogin(baseUrl, await registerPartner(baseUrl, `flood-${database}`));
    const other = await apiLogin(baseUrl, await registerPartner(baseUrl, `other-${database}`));
    const kodeIds = demoKodeIds();
    const shown = await newRepair(baseUrl, flooder, kodeIds[0]!, 5_000);
    const put = await putPhoto(baseUrl, flooder, shown, photo);
    if (put.status !== 201) throw new Error(`PUT photo: ${put.status} ${await put.text()}`);
    const uploadTargets: string[] = [];
    for (let i = 0; i < options.uploaders; i++) {
      uploadTargets.push(await newRepair(baseUrl, flooder, kodeIds[(i % (kodeIds.length - 1)) + 1]!, 4_000 - i));
    }
    const startRssMb = rssMb(portal.portal.pid);
    // Idle, as a server in service is: once it has served and taken a few photos (its code loaded
    // and compiled, its connections open), with a moment for the collector.
    for (let i = 0; i < WARM_UP_CALLS; i++) {
      const read = await fetch(`${baseUrl}/api/partner/repairs/${shown}/photo`, {
        headers: { authorization: `Bearer ${flooder.accessToken}`, 'x-origin': baseUrl },
      });
      await read.arrayBuffer();
      const upload = await putPhoto(baseUrl, flooder, uploadTargets[i % uploadTargets.length]!, photo);
      await upload.arrayBuffer();
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const idleRssMb = rssMb(portal.portal.pid);
    let peakRssMb = idleRssMb;
    const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(portal.portal.pid))), 50);

    const probes = new Worker(PROBE_WORKER, {
      eval: true,
      workerData: { baseUrl, token: other.accessToken, kodeIds },
    });
    const probeTimes = new Promise<{ health: ProbeTimes; lookup: ProbeTimes }>((resolve, reject) => {
      probes.once('message', resolve);
      probes.once('error', reject);
    });
    const until = Date.now() + options.durationS * 1000;
    const photoHeaders = { authorization: `Bearer ${flooder.accessToken}`, 'x-origin': baseUrl };
    const [reads, uploads] = await Promise.all([
      flood(options.readers, until, () =>
        fetch(`${baseUrl}/api/partner/repairs/${shown}/photo`, {
          headers: photoHeaders,
          signal: AbortSignal.timeout(30_000),
        }),
      ),
      flood(options.uploaders, until, (worker) => putPhoto(baseUrl, flooder, uploadTargets[worker]!, photo)),
    ]);
    probes.postMessage('stop');
    const { health, lookup } = await probeTimes;
    await probes.terminate();
    clearInterval(sampler);
    const run: PhotoLoadRun = {
      database,
      photoBytes: photo.length,
      health: summarise(health),
      otherLookup: summarise(lookup),
      startRssMb: Math.round(startRssMb),
      idleRssMb: Math.round(idleRssMb),
      peakRssMb: Math.round(peakRssMb),
      reads: reads.statuses,
      uploads: uploads.statuses,
      unavailableWithoutRetryAfter: reads.unavailableWithoutRetryAfter + uploads.unavailableWithoutRetryAfter,
    };
    log(
      `  ${database}: health p99 ${run.health.p99Ms} ms (max ${run.health.maxMs}) ${JSON.stringify(run.health.statuses)}, other lookup p99 ${run.otherLookup.p99Ms} ms (max ${run.otherLookup.maxMs}) ${JSON.stringify(run.otherLookup.statuses)}, ` +
        `memory ${run.startRssMb} (started) ${run.idleRssMb} (idle) → ${run.peakRssMb} MB, reads ${JSON.stringify(run.reads)}, uploads ${JSON.stringify(run.uploads)}`,
    );
    return run;
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await portal.stop();
  }
}
