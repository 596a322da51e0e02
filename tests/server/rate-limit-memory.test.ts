/**
 * Without REDIS_URL the limits are counted in this process's memory by rate-limiter-flexible: the
 * window ends on the real clock and each key is dropped with it, so a spray of distinct keys does not
 * stay in memory. Time is moved with fake timers: the limiter reads Date.now() for the window and
 * drops a key with setTimeout (clearTimeout when it is set again), so those three are faked.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../server/http/errors';
import { rateLimitPlugin } from '../../server/plugins/rate-limit';
import { redisPlugin } from '../../server/plugins/redis';

const WINDOW_MS = 15 * 60 * 1000;

describe('rate limits in memory without Redis', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    app = Fastify();
    await app.register(redisPlugin, { config: { redisUrl: null } });
    await app.register(rateLimitPlugin);
    await app.ready();
  });
  afterEach(async () => {
    await app.close();
    vi.useRealTimers();
  });

  async function hit(key: string, max = 3): Promise<ApiError | undefined> {
    return app.enforceLimits([{ key, max, windowMs: WINDOW_MS }]).then(
      () => undefined,
      (error: unknown) => error as ApiError,
    );
  }

  it('allows max hits per window, then 429 with Retry-After, then again once the window has passed', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) expect(await hit('k')).toBeUndefined();
    const refused = await hit('k');
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused?.statusCode).toBe(429);
    expect(refused?.headers?.['retry-after']).toBe(String(WINDOW_MS / 1000));
    vi.advanceTimersByTime(WINDOW_MS + 1000);
    expect(await hit('k')).toBeUndefined();
  });

  it('counts Retry-After down to the end of the window', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) await hit('countdown');
    vi.advanceTimersByTime(10 * 60 * 1000);
    expect((await hit('countdown'))?.headers?.['retry-after']).toBe(String(5 * 60));
  });

  it('reports Redis as not configured', async () => {
    expect(await app.redisState()).toBe('not_configured');
  });

  it('forgets each key when its window ends', async () => {
    for (let index = 0; index < 1000; index += 1) await hit(`spray:${index}`);
    expect(vi.getTimerCount()).toBeGreaterThanOrEqual(1000);
    vi.advanceTimersByTime(WINDOW_MS + 1000);
    expect(vi.getTimerCount()).toBe(0);
  });
});
