/**
 * Closing a listening server without leaving a client unanswered (README.md#stopping-the-server):
 *
 * 1. New connections are refused at once; connections already open stay open.
 * 2. Requests in flight finish, and their answers say `Connection: close`.
 * 3. A new request on a connection already open (a kept-alive one) is answered 503 `unavailable`
 *    with `Connection: close` (the envelope plugin answers it), so its client retries elsewhere
 *    instead of meeting a reset connection.
 * 4. Once nothing is in flight, and not before LINGER_MS (so a request sent as the signal came still
 *    gets its 503), the remaining connections are closed and the close goes on (the database last).
 * 5. At DRAIN_BOUND_MS whatever is still in flight (an upload still arriving, a stuck query) is
 *    answered 503 `unavailable` with `Connection: close` and Retry-After, and its connection closed:
 *    the whole close then ends well within SHUTDOWN_BOUND_MS, and the process exits 0.
 *
 * Node's http.Server.close() alone would close every idle kept-alive connection at once (step 3's
 * clients would meet a reset) and wait without end for a slow upload.
 */
import fp from 'fastify-plugin';
import net from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { languageOf, messageFor } from '../i18n/messages';
import type { ApiFailure } from '../../contract';

/** From SIGTERM to the exit, at most (server.ts): past it the process exits 1. */
export const SHUTDOWN_BOUND_MS = 10_000;
/** Requests still in flight this long after the close began are answered 503; the rest of the bound closes the database. */
export const DRAIN_BOUND_MS = 7_500;
/** Kept-alive connections stay open at least this long after the close began. */
export const LINGER_MS = 1_000;
/** After the 503s at the bound, how long their answers have to leave before their connections are destroyed. */
const LAST_ANSWERS_MS = 500;
/** Retry-After on a 503 sent at the bound: a restarting instance is usually back within this. */
const RETRY_AFTER_SECONDS = 5;

export interface GracefulCloseOptions {
  drainBoundMs?: number;
  lingerMs?: number;
}

function unavailableBody(request: IncomingMessage): string {
  const language = languageOf(request.headers['accept-language']);
  const body: ApiFailure = {
    code: 503,
    status: 'error',
    error: { type: 'other', message: messageFor('unavailable', language), reason: 'unavailable' },
  };
  return JSON.stringify(body);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const gracefulClosePlugin = fp<GracefulCloseOptions>(
  async (app, options) => {
    const drainBoundMs = options.drainBoundMs ?? DRAIN_BOUND_MS;
    const lingerMs = options.lingerMs ?? LINGER_MS;
    const server = app.server;
    const sockets = new Set<net.Socket>();
    const inFlight = new Set<ServerResponse>();
    let draining = false;
    /** Wakes the drain up when the last request in flight is answered. */
    let onSettled: (() => void) | null = null;

    server.on('connection', (socket: net.Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
      inFlight.add(response);
      // 'close' comes once the answer is out, or the connection is gone.
      response.once('close', () => {
        inFlight.delete(response);
        if (inFlight.size === 0) onSettled?.();
      });
    });

    app.addHook('onSend', async (_request, reply) => {
      // Answers finished while closing: their clients must not send another request on this connection.
      if (draining) reply.header('connection', 'close');
    });

    /** Resolves when nothing is in flight, or after ms. */
    const settledOr = (ms: number) =>
      new Promise<void>((resolve) => {
        if (inFlight.size === 0) return resolve();
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          onSettled = null;
          resolve();
        }
        onSettled = done;
      });

    // preClose runs after Fastify marked itself closing (new requests get the envelope plugin's 503)
    // and before it closes the server; the database plugin's onClose hooks come after.
    app.addHook('preClose', async () => {
      if (!server.listening) return;
      draining = true;
      const began = Date.now();
      // net.Server's close stops accepting and leaves open connections be (http.Server's would close
      // the idle ones at once).
      net.Server.prototype.close.call(server);
      await settledOr(drainBoundMs);
      const sinceBegan = Date.now() - began;
      if (inFlight.size === 0 && sinceBegan < lingerMs && sockets.size > 0) await sleep(lingerMs - sinceBegan);

      if (inFlight.size > 0) {
        app.log.warn(
          { requests: [...inFlight].map((response) => `${response.req.method} ${response.req.url?.split('?')[0]}`) },
          `still in flight ${drainBoundMs} ms after the close began: answered 503`,
        );
        for (const response of inFlight) {
          if (response.headersSent) {
            // Half an answer cannot be finished honestly: the client sees the connection drop.
            response.socket?.destroy();
            continue;
          }
          const body = unavailableBody(response.req);
          response.writeHead(503, {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(body),
            'retry-after': String(RETRY_AFTER_SECONDS),
            connection: 'close',
          });
          response.end(body);
        }
        await settledOr(LAST_ANSWERS_MS);
      }
      // Idle kept-alive connections, and any whose request never finished arriving.
      for (const socket of sockets) socket.destroy();
    });
  },
  { name: 'graceful-close', dependencies: ['envelope'] },
);
