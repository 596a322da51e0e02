/**
 * Photo traffic (docs/API.md#photo-traffic): a photo's bytes are the one costly thing a signed-in garage
 * can ask for at will, so their transfers go through two bulkheads (http/bulkhead.ts), one for reads
 * and one for uploads, each with a share per partner and one for the process. What does not fit is
 * answered 503 `unavailable` with Retry-After at once, or after a short wait in line, never held open:
 * the tablet's sender honours Retry-After, and every other call (a lookup, the probes) never queues
 * behind a photo.
 */
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { Bulkhead, BulkheadFull, type BulkheadLimits, type Release } from '../http/bulkhead';
import { ApiError } from '../http/errors';

export interface PhotoTrafficLimits {
  reads: BulkheadLimits;
  writes: BulkheadLimits;
  /** Retry-After on the 503, in seconds. */
  retryAfterSeconds: number;
}

/**
 * A photo read streams a few hundred KB per database call and is done in tens of milliseconds; an
 * upload holds up to 2 MB (PHOTO_MAX_BYTES) in memory until it is stored, and is decoded once. A tablet
 * shows a handful of photos at once and sends one at a time, so the per-partner shares never slow a
 * garage that is not flooding; the line absorbs a History page opened on several tablets. Two reads
 * per partner, not four: with four, a flooding garage's reads took enough of a 2-core server that
 * the health probe's or a lookup's p99 missed its goal in two of five bench runs
 * (docs/decisions/0031-photo-traffic-takes-turns.md).
 */
export const DEFAULT_PHOTO_TRAFFIC: PhotoTrafficLimits = {
  reads: { perProcess: 6, perKey: 2, queue: 64, queuePerKey: 24, maxWaitMs: 5_000 },
  writes: { perProcess: 2, perKey: 1, queue: 16, queuePerKey: 4, maxWaitMs: 10_000 },
  retryAfterSeconds: 5,
};

const REFUSAL_LOG_INTERVAL_MS = 10_000;

export interface PhotoTraffic {
  /**
   * Waits for the caller's turn to move a photo's bytes, and gives it back when the answer is over
   * (sent, failed or cut off); throws the 503 when its turn does not come.
   */
  enter(kind: 'reads' | 'writes', partnerId: string, reply: FastifyReply): Promise<void>;
  load(): Record<'reads' | 'writes', { running: number; waiting: number }>;
}

declare module 'fastify' {
  interface FastifyInstance {
    photoTraffic: PhotoTraffic;
  }
}

export const photoTrafficPlugin = fp<{ limits?: Partial<PhotoTrafficLimits> }>(
  async (app, { limits }) => {
    const settings = { ...DEFAULT_PHOTO_TRAFFIC, ...limits };
    const bulkheads = { reads: new Bulkhead(settings.reads), writes: new Bulkhead(settings.writes) };
    const unavailable = () =>
      new ApiError(503, 'other', 'unavailable', undefined, { 'retry-after': String(settings.retryAfterSeconds) });
    // One line per flood, not one per call turned away: the first refusal, then a count every 10 s.
    let refused = 0;
    let warnedAt = -Infinity;
    const noteRefusal = (kind: 'reads' | 'writes', why: BulkheadFull['why']) => {
      refused += 1;
      if (performance.now() - warnedAt < REFUSAL_LOG_INTERVAL_MS) return;
      app.log.warn({ kind, why, refused, load: bulkheads[kind].load() }, 'photo traffic: calls turned away with 503');
      warnedAt = performance.now();
      refused = 0;
    };

    app.decorate('photoTraffic', {
      async enter(kind, partnerId, reply) {
        // The response closes when it is over, and also when the client goes away while it waits.
        const gone = new AbortController();
        const onClose = () => gone.abort();
        reply.raw.once('close', onClose);
        let release: Release;
        try {
          release = await bulkheads[kind].enter(partnerId, gone.signal);
        } catch (error) {
          if (!(error instanceof BulkheadFull)) throw error;
          noteRefusal(kind, error.why);
          throw unavailable();
        } finally {
          reply.raw.off('close', onClose);
        }
        if (reply.raw.destroyed || reply.raw.writableFinished) release();
        else reply.raw.once('close', release);
      },
      load: () => ({ reads: bulkheads.reads.load(), writes: bulkheads.writes.load() }),
    } satisfies PhotoTraffic);
  },
  { name: 'photo-traffic', dependencies: ['envelope'] },
);
