/**
 * A small round-robin reverse proxy for the scale-out test (a test fixture, not product code): each
 * request goes to the next upstream in turn, whatever connection it came on, and the proxy records
 * which upstream served it. It adds X-Forwarded-For and X-Forwarded-Proto as a real load balancer
 * would (the instances run with TRUST_PROXY=1). Loopback only.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  url: string;
  /** Index of the upstream that served it. */
  upstream: number;
  /** The upstream's answer (0 when it could not be reached). */
  status: number;
}

export interface RoundRobinProxy {
  /** http://127.0.0.1:<port>: the public address of the portal. */
  url: string;
  /** Every request forwarded, in the order they arrived. */
  log(): readonly ProxiedRequest[];
  /**
   * Sends the next request whose path starts with `pathPrefix` to `upstream`, whatever the turn: a
   * test that needs a call on a given instance gets it without counting the page's other requests.
   */
  routeNext(pathPrefix: string, upstream: number): void;
  close(): Promise<void>;
}

/** Listens on `port` (0 for any) and alternates between `upstreams` (http://127.0.0.1:<port> each). */
export async function startRoundRobinProxy(upstreams: readonly string[], port = 0): Promise<RoundRobinProxy> {
  if (upstreams.length === 0) throw new Error('no upstream');
  const targets = upstreams.map((upstream) => new URL(upstream));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const log: ProxiedRequest[] = [];
  let next = 0;
  const routed: { pathPrefix: string; upstream: number }[] = [];
  const upstreamFor = (url: string): number => {
    const pinned = routed.findIndex((route) => url.startsWith(route.pathPrefix));
    if (pinned >= 0) return routed.splice(pinned, 1)[0]!.upstream;
    const upstream = next;
    next = (next + 1) % targets.length;
    return upstream;
  };
  const server = http.createServer((req, res) => {
    const upstream = upstreamFor(req.url ?? '/');
    const target = targets[upstream]!;
    const entry: ProxiedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', upstream, status: 0 };
    log.push(entry);
    const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const proxied = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        agent,
        headers: { ...req.headers, 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'http' },
      },
      (answer) => {
        entry.status = answer.statusCode ?? 0;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    proxied.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    });
    req.pipe(proxied);
  });
  // Idle client connections stay open as long as on the instances behind it (Fastify's 72 s), not
  // Node's 5 s: with 5 s, a test's fetch could reuse a connection the proxy was closing at that
  // moment and get ECONNRESET on a POST, which fetch does not retry.
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log: () => log,
    routeNext: (pathPrefix, upstream) => {
      if (!targets[upstream]) throw new Error(`no upstream ${upstream}`);
      routed.push({ pathPrefix, upstream });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        agent.destroy();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
