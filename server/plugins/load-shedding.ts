/**
 * Load shedding (docs/API.md#load-shedding): while the event loop has lagged far behind for seconds
 * on end, or the heap nears V8's limit, calls are turned away at once with 503 `unavailable` and
 * Retry-After, before they add to the queue, rather than answered late by a process on its way to
 * running out of memory. The health probes still answer (routes/health.ts): live as always, ready
 * with 503 naming the pressure, so a balancer sends this instance's share elsewhere for a while.
 *
 * The same idea as @fastify/under-pressure, which was tried first and taken out: it judges one
 * sample at a time, and counts a sample in which the loop never got round to a tick as infinitely
 * late. On the embedded database one blocking stretch of a second or two (PGlite's WebAssembly runs
 * on the event loop; a busy 2-core machine adds its own stalls) then turned every call away for the
 * next second. Here the loop must lag in SUSTAINED_SAMPLES samples in a row.
 */
import fp from 'fastify-plugin';
import v8 from 'node:v8';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ApiError } from '../http/errors';

export interface LoadSheddingLimits {
  /**
   * Mean lateness of the event loop over one sample, in ms (0: not checked). At 1 s every call already
   * waits a second before its first line runs; the API bench at full load stays far below.
   */
  maxEventLoopDelayMs: number;
  /** V8 heap in use, in bytes (0: not checked); by default 90% of what V8 may grow to (--max-old-space-size). */
  maxHeapUsedBytes: number;
  /** How often the process is sampled, in ms. */
  sampleIntervalMs: number;
  /** Retry-After on the 503, in seconds. */
  retryAfterSeconds: number;
}

/** Samples in a row the loop must lag before calls are turned away: a lone stall is not overload. */
export const SUSTAINED_SAMPLES = 3;

export function defaultLoadSheddingLimits(): LoadSheddingLimits {
  return {
    maxEventLoopDelayMs: 1_000,
    maxHeapUsedBytes: Math.floor(v8.getHeapStatistics().heap_size_limit * 0.9),
    sampleIntervalMs: 1_000,
    retryAfterSeconds: 10,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether calls are being turned away right now, and why. */
    pressure(): { underPressure: boolean; reason: PressureReason | null };
  }
  interface FastifyContextConfig {
    /** The route answers under pressure too (the health probes). */
    answersUnderPressure?: boolean;
  }
}

export type PressureReason = 'event_loop_delay' | 'heap_used';

/** The resolution of the event-loop histogram, in ms: the lateness it can see. */
const LOOP_RESOLUTION_MS = 10;

/** One warning when pressure begins and one line when it ends, not one per call turned away. */
export const loadSheddingPlugin = fp<{ limits: LoadSheddingLimits }>(
  async (app, { limits }) => {
    const { maxEventLoopDelayMs, maxHeapUsedBytes, sampleIntervalMs, retryAfterSeconds } = limits;
    const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    loop.enable();
    let laggingSamples = 0;
    let reason: PressureReason | null = null;

    const sample = () => {
      // A sample without one tick: the loop never got round to one in the whole interval.
      const meanDelayMs = loop.count > 0 ? loop.mean / 1e6 - LOOP_RESOLUTION_MS : Infinity;
      loop.reset();
      laggingSamples = maxEventLoopDelayMs > 0 && meanDelayMs > maxEventLoopDelayMs ? laggingSamples + 1 : 0;
      const heapUsed = v8.getHeapStatistics().used_heap_size;
      const previous = reason;
      reason =
        maxHeapUsedBytes > 0 && heapUsed > maxHeapUsedBytes
          ? 'heap_used'
          : laggingSamples >= SUSTAINED_SAMPLES
            ? 'event_loop_delay'
            : null;
      if (reason && !previous) {
        app.log.warn({ reason, meanDelayMs, heapUsed }, 'under pressure: turning calls away with 503');
      } else if (!reason && previous) {
        app.log.warn('pressure over: answering calls again');
      }
    };
    const timer = setInterval(sample, sampleIntervalMs);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      loop.disable();
    });

    app.decorate('pressure', () => ({ underPressure: reason !== null, reason }));
    app.addHook('onRequest', async (request) => {
      if (reason === null || request.routeOptions.config.answersUnderPressure) return;
      // The error handler answers it in the envelope, with these headers.
      throw new ApiError(503, 'other', 'unavailable', undefined, { 'retry-after': String(retryAfterSeconds) });
    });
  },
  { name: 'load-shedding', dependencies: ['envelope'] },
);
