/**
 * Graceful shutdown (README.md#stopping-the-server): on SIGTERM the server stops accepting
 * connections, finishes what is in flight, answers new requests on connections already open with 503
 * and `Connection: close`, answers an upload still arriving at the bound with 503, and exits 0
 * within 10 s. First, SIGTERM in the middle of a burst of writes: after a restart on the same data
 * every acknowledged repair is there and the database opens without complaint. Last, SIGKILL halfway
 * through a photo's upload: none of it is kept, and the whole photo is taken after the restart. Runs on the embedded
 * database (TEST_DB=pglite, the data directory must not be corrupted) and on the PostgreSQL server.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { realJpeg } from '../support/pictures';
import { startServer, type ServerProcess } from '../support/processes';
import { dataDirWithMigratedDatabase } from '../support/pglite-template';
import { createPostgresDatabase } from '../support/test-app';

/** The documented bound: the process exits within 10 s of SIGTERM (README.md#stopping-the-server). */
const SHUTDOWN_BOUND_MS = 10_000;

const BURST = 60;

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'garage@demo.dz', password: 'demo-garage-2026', remember_me: false }),
  });
  const body = (await res.json()) as { data: { access_token: string } };
  return body.data.access_token;
}

function postRepair(url: string, token: string, odometer: number) {
  return fetch(`${url}/api/partner/repairs`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify({
      kode_id: 'KODE000002',
      odometer,
      repair_type_id: 'mileage_reading',
      consented: true,
      recorded_at: new Date().toISOString(),
    }),
  }).then(
    async (res) => {
      const body = (await res.json()) as { code: number; data?: { id: string }; error?: { reason: string } };
      return { status: res.status, body, id: res.status === 201 ? (body.data?.id ?? null) : null };
    },
    () => ({ status: 0, body: null, id: null }),
  );
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  reusedSocket: boolean;
}
/** What the client saw instead of an answer (ECONNRESET, ECONNREFUSED…). */
interface NoAnswer {
  error: string;
}

function answerOf(request: http.ClientRequest): Promise<Answer | NoAnswer> {
  return new Promise((resolve) => {
    // `on`, not `once`: a write after the server answered and closed can fail again, harmlessly.
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.once('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body,
          reusedSocket: request.reusedSocket,
        }),
      );
    });
  });
}

function get(url: string, agent: http.Agent): Promise<Answer | NoAnswer> {
  const request = http.get(url, { agent });
  return answerOf(request);
}

/**
 * A POST whose body the test sends when it likes. `Expect: 100-continue` makes the server say when it
 * has read the headers and started on the request (Node answers 100 Continue as it hands it over), so
 * "in flight" is a fact the test waits for, not a guess at a delay.
 */
function slowUpload(url: string, headers: Record<string, string>, body: string | Buffer, method = 'POST') {
  const request = http.request(url, {
    method,
    agent: false,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      expect: '100-continue',
      ...headers,
    },
  });
  const started = new Promise<void>((resolve) => request.once('continue', () => resolve()));
  const answer = answerOf(request);
  request.flushHeaders();
  return { request, started, answer };
}

/** Resolves once the port refuses new connections: the server has stopped accepting them. */
async function refusesConnections(port: number): Promise<void> {
  const deadline = Date.now() + SHUTDOWN_BOUND_MS;
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return;
    if (Date.now() > deadline) throw new Error(`port ${port} still accepts connections`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function expectUnavailable(answer: Answer | NoAnswer) {
  expect(answer).toMatchObject({ status: 503, headers: { connection: 'close' } });
  const { body } = answer as Answer;
  expect(JSON.parse(body)).toMatchObject({
    code: 503,
    status: 'error',
    error: { type: 'other', reason: 'unavailable' },
  });
}

const LOGIN_BODY = JSON.stringify({ email: 'garage@demo.dz', password: 'demo-garage-2026', remember_me: false });

function repairBody(odometer: number): string {
  return JSON.stringify({
    kode_id: 'KODE000003',
    odometer,
    repair_type_id: 'mileage_reading',
    consented: true,
    recorded_at: new Date().toISOString(),
  });
}

describe('graceful shutdown', { timeout: 60_000 }, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A data directory (and a PostgreSQL database) of its own, removed after the tests. */
  async function ownData(): Promise<Record<string, string>> {
    const dataDir = await dataDirWithMigratedDatabase('portal-shutdown-');
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = { DATA_DIR: dataDir, NODE_ENV: 'development' };
    if (process.env.TEST_DB === 'postgres') {
      const database = await createPostgresDatabase();
      cleanups.push(() => database.drop());
      env.DATABASE_URL = database.url;
    }
    return env;
  }

  /** A server on `env` (its own data unless given), killed after the test if still there. */
  async function start(env?: Record<string, string>): Promise<ServerProcess> {
    const server = await startServer(env ?? (await ownData()));
    cleanups.push(async () => void server.child.kill('SIGKILL'));
    return server;
  }

  it('answers a request on a kept-alive connection after SIGTERM with 503 and Connection: close, and finishes the upload in flight', async () => {
    const server = await start();
    const token = await signIn(server.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(async () => agent.destroy());
    const first = await get(`${server.url}/api/public/client-config`, agent);
    expect(first).toMatchObject({ status: 200 });

    // A repair whose body is still on its way when the signal comes.
    const body = repairBody(123_456);
    const upload = slowUpload(
      `${server.url}/api/partner/repairs`,
      { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
      body,
    );
    await upload.started;
    upload.request.write(body.slice(0, 10));

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await refusesConnections(server.port);

    // The agent's connection, open before SIGTERM, carries one more request: answered, not reset.
    const second = await get(`${server.url}/api/public/client-config`, agent);
    expectUnavailable(second);
    expect((second as Answer).reusedSocket).toBe(true);

    // The upload in flight completes and is answered in full; its connection is not kept either.
    upload.request.end(body.slice(10));
    const stored = await upload.answer;
    expect(stored).toMatchObject({ status: 201, headers: { connection: 'close' } });
    expect(JSON.parse((stored as Answer).body)).toMatchObject({ code: 201, data: { odometer: 123_456 } });

    expect((await server.finished).code).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(SHUTDOWN_BOUND_MS);
  });

  it('answers an upload still arriving at the bound with 503, closes it, and exits 0 within 10 s', async () => {
    const server = await start();
    // Leading spaces are valid JSON: one a quarter second, the body never completes in 10 s.
    const body = `${' '.repeat(4_000)}${LOGIN_BODY}`;
    const upload = slowUpload(`${server.url}/api/auth/login`, {}, body);
    await upload.started;
    const trickle = setInterval(() => {
      if (upload.request.writable) upload.request.write(' ');
    }, 250);
    cleanups.push(async () => clearInterval(trickle));

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    const answer = await upload.answer;
    const answeredAfter = Date.now() - signalled;
    clearInterval(trickle);
    expectUnavailable(answer);
    expect(Number((answer as Answer).headers['retry-after'])).toBeGreaterThan(0);

    const finished = await server.finished;
    const exitedAfter = Date.now() - signalled;
    expect(finished.code, finished.stderr).toBe(0);
    expect(answeredAfter).toBeLessThan(SHUTDOWN_BOUND_MS);
    // The exit itself comes within the bound; a little slack for the process to be reaped on a busy machine.
    expect(exitedAfter).toBeLessThan(SHUTDOWN_BOUND_MS + 1_000);
  });

  it('finishes requests in flight, exits 0, and loses no acknowledged write', async () => {
    const env = await ownData();
    const first = await start(env);
    const token = await signIn(first.url);
    const burst = Array.from({ length: BURST }, (_, index) => postRepair(first.url, token, 10_000 + index));
    await new Promise((resolve) => setTimeout(resolve, 30));
    first.child.kill('SIGTERM');
    const results = await Promise.all(burst);
    expect((await first.finished).code).toBe(0);

    // Each request was either answered in full or refused cleanly (503 while closing, or not connected).
    for (const result of results) expect([201, 503, 0]).toContain(result.status);
    // A 503 is the envelope like any other answer.
    for (const result of results.filter(({ status }) => status === 503)) {
      expect(result.body).toMatchObject({ code: 503, status: 'error', error: { reason: 'unavailable' } });
    }
    const acknowledged = results.flatMap((result) => (result.id ? [result.id] : []));
    expect(acknowledged.length).toBeGreaterThan(0);

    const second = await start(env);
    const list = await fetch(`${second.url}/api/partner/repairs?limit=500`, {
      headers: { authorization: `Bearer ${await signIn(second.url)}` },
    });
    expect(list.status).toBe(200);
    const stored = new Set(((await list.json()) as { data: Array<{ id: string }> }).data.map((repair) => repair.id));
    for (const id of acknowledged) expect(stored.has(id)).toBe(true);
    expect(await second.stop()).toBe(0);
  });
  it('killed (SIGKILL) halfway through a photo, keeps none of it, and takes the whole photo after', async () => {
    const env = await ownData();
    const first = await start(env);
    const token = await signIn(first.url);
    const repair = await postRepair(first.url, token, 200_000);
    expect(repair.status).toBe(201);
    const photoUrl = `${first.url}/api/partner/repairs/${repair.id}/photo`;
    // As heavy as a camera's: the server judges the picture only once the whole body has arrived.
    const picture = await realJpeg(1600, 1200, { noise: true });
    expect(picture.length).toBeGreaterThan(400_000);
    const upload = slowUpload(
      photoUrl,
      { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
      picture,
      'PUT',
    );
    await upload.started;
    upload.request.write(picture.subarray(0, picture.length / 2));
    await new Promise((resolve) => setTimeout(resolve, 100));
    first.child.kill('SIGKILL');
    expect(await upload.answer).toHaveProperty('error');
    await first.finished;

    const second = await start(env);
    const again = await signIn(second.url);
    const photoAt = (url: string) => fetch(url, { headers: { authorization: `Bearer ${again}` } });
    const secondUrl = `${second.url}/api/partner/repairs/${repair.id}/photo`;
    expect((await photoAt(secondUrl)).status).toBe(404);
    const list = await fetch(`${second.url}/api/partner/repairs?limit=500`, {
      headers: { authorization: `Bearer ${again}` },
    });
    const records = ((await list.json()) as { data: Array<{ id: string; photo: unknown }> }).data;
    expect(records.find((record) => record.id === repair.id)).toMatchObject({ photo: null });

    const whole = await fetch(secondUrl, {
      method: 'PUT',
      headers: { authorization: `Bearer ${again}`, 'content-type': 'image/jpeg' },
      body: new Uint8Array(picture),
    });
    expect(whole.status).toBe(201);
    const served = await photoAt(secondUrl);
    expect(Buffer.from(await served.arrayBuffer()).equals(picture)).toBe(true);
    expect(await second.stop()).toBe(0);
  });
});
