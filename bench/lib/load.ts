/** autocannon against the portal on loopback: one run, summarised as the report's figures. */
import autocannon, { type Options, type RequestSpec } from 'autocannon';

export interface LoadRun {
  requests: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Connection errors, timeouts and every answer that is not 2xx. */
  errors: number;
  statusCodes: Record<string, number>;
}

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds; or a fixed number of requests with `amount`. */
  duration?: number;
  amount?: number;
  headers?: Record<string, string>;
  method?: string;
  requests?: RequestSpec[];
}

export async function runLoad(options: LoadOptions): Promise<LoadRun> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(options.url)) throw new Error(`loopback only: ${options.url}`);
  const settings: Options = {
    url: options.url,
    connections: options.connections,
    timeout: 30,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.duration ?? 10 }),
    ...(options.requests ? { requests: options.requests } : {}),
  };
  const result = await autocannon(settings);
  const elapsedS = Math.max(0.001, (result.finish.getTime() - result.start.getTime()) / 1000);
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(count);
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.total / elapsedS,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    statusCodes,
  };
}
