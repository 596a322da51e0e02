/**
 * A reverse proxy in front of the portal that can lose a response: the request reaches the server
 * and is fully processed, then the client's connection is cut instead of answered. That is the
 * case the idempotent POST /repairs exists for (the repair is stored, the tablet never hears so).
 * It can also stand in for a server that is down: requests answered 503 without reaching it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DroppingProxy {
  /** http://127.0.0.1:<port>: open the app here instead of the portal's own URL. */
  url: string;
  /**
   * Loses the response to the next request with this method whose path starts with pathPrefix.
   * Resolves with the status the server answered once the client's connection has been cut.
   */
  dropNextResponseTo(method: string, pathPrefix: string): Promise<number>;
  /**
   * Answers every request with this method whose path starts with pathPrefix with 503 in the API's
   * envelope, without forwarding it, until the returned function is called. A response to lose
   * (dropNextResponseTo) still goes through first.
   */
  unavailable(method: string, pathPrefix: string): () => void;
  /** "METHOD /path?query" of every request forwarded, in order. */
  forwarded(): readonly string[];
  close(): Promise<void>;
}

interface DropRule {
  method: string;
  pathPrefix: string;
  dropped(status: number): void;
}

/**
 * The server checks X-Origin (and may check Origin) against its own APP_URL; seen through the proxy
 * the page has another origin, so these are rewritten to the target's as if the page were served there.
 */
function upstreamHeaders(req: http.IncomingMessage, target: URL): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.host };
  for (const name of ['origin', 'x-origin']) if (headers[name] !== undefined) headers[name] = target.origin;
  if (typeof headers.referer === 'string') {
    const referer = new URL(headers.referer);
    headers.referer = target.origin + referer.pathname + referer.search;
  }
  return headers;
}

interface RequestMatch {
  method: string;
  pathPrefix: string;
}

const matches = (rule: RequestMatch, req: http.IncomingMessage) =>
  rule.method === req.method && (req.url ?? '').startsWith(rule.pathPrefix);

function takeRule(rules: DropRule[], req: http.IncomingMessage): DropRule | undefined {
  const index = rules.findIndex((rule) => matches(rule, req));
  return index < 0 ? undefined : rules.splice(index, 1)[0];
}

const UNAVAILABLE_BODY = JSON.stringify({
  code: 503,
  status: 'error',
  error: { type: 'other', message: 'Service temporairement indisponible' },
});

export async function startDroppingProxy(target: string): Promise<DroppingProxy> {
  const targetUrl = new URL(target);
  const rules: DropRule[] = [];
  const outages = new Set<RequestMatch>();
  const log: string[] = [];
  const server = http.createServer((req, res) => {
    // A response to lose is taken first: that request reaches the server whatever the outages.
    const rule = takeRule(rules, req);
    if (!rule && [...outages].some((outage) => matches(outage, req))) {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json', connection: 'close' });
      res.end(UNAVAILABLE_BODY);
      return;
    }
    log.push(`${req.method ?? ''} ${req.url ?? ''}`);
    const upstream = http.request(
      {
        host: targetUrl.hostname,
        port: targetUrl.port,
        method: req.method,
        path: req.url,
        headers: upstreamHeaders(req, targetUrl),
      },
      (answer) => {
        if (rule) {
          // Read the whole answer so the server has finished, then cut the client off without a byte.
          answer.resume();
          answer.once('end', () => {
            req.socket.destroy();
            rule.dropped(answer.statusCode ?? 0);
          });
          return;
        }
        // Connection: close on every answer: Chromium silently resends a request whose reused
        // keep-alive connection dies before any byte arrives, which would undo a drop.
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, connection: 'close' });
        answer.pipe(res);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropNextResponseTo: (method, pathPrefix) =>
      new Promise((resolve) => rules.push({ method: method.toUpperCase(), pathPrefix, dropped: resolve })),
    unavailable: (method, pathPrefix) => {
      const outage = { method: method.toUpperCase(), pathPrefix };
      outages.add(outage);
      return () => void outages.delete(outage);
    },
    forwarded: () => log,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
