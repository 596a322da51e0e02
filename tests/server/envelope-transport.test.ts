/**
 * Answers given before a request reaches a route are in the envelope too: headers over Node's
 * 16 KB limit (431) and a request Node cannot parse (400), both answered from the socket, and a
 * request arriving while the server shuts down (503). These need a real socket: the app listens on
 * an ephemeral port and the test speaks raw HTTP.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../contract';
import { createTestApp, type TestApp } from '../support/test-app';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseAnswer(raw: string): RawAnswer {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

/** Writes `request` on a new connection and reads until the server closes it. */
function rawRequest(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let raw = '';
    socket.on('data', (chunk) => (raw += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(parseAnswer(raw)));
    socket.write(request);
  });
}

function expectEnvelope(answer: RawAnswer, code: number, reason: string) {
  expect(answer.status).toBe(code);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as ApiFailure;
  expect(body).toMatchObject({ code, status: 'error', error: { reason } });
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'status']);
  expect(body.error.message.length).toBeGreaterThan(0);
}

describe('answers from the socket', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  it('answers headers over 16 KB with 431 in the envelope', async () => {
    const answer = await rawRequest(
      port,
      `GET /api/public/client-config HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
    );
    expectEnvelope(answer, 431, 'headers_too_large');
  });

  it('answers a request that is not HTTP with 400 in the envelope', async () => {
    expectEnvelope(await rawRequest(port, 'HELLO THERE\r\n\r\n'), 400, 'invalid_request');
  });
});

/** Resolves once the server refuses new connections: its shutdown has begun. */
async function refusingConnections(port: number): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const probe = net.connect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve(false);
      });
      probe.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('answers while shutting down', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('answers a request arriving during shutdown with 503 in the envelope', async () => {
    const { port } = t.app.server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    let raw = '';
    socket.on('data', (chunk) => (raw += chunk.toString()));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    // Half a request: the connection is busy, so shutdown waits for it instead of closing it.
    socket.write('GET /api/public/client-config HTTP/1.1\r\nHost: localhost\r\n');
    await new Promise((resolve) => setImmediate(resolve));
    const closing = t.app.close();
    await refusingConnections(port);
    socket.write('\r\n');
    await closed;
    await closing;
    expectEnvelope(parseAnswer(raw), 503, 'unavailable');
  });
});
