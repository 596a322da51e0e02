/**
 * A Redis outage must not stop sign-in: while Redis is away the limits are counted in this
 * instance's memory (one warning when it goes, one line when it returns), never a 500; once it is
 * back they are counted in Redis again. Uses a redis-server of its own, stopped and started again.
 */
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createPartner, type TestPartner } from '../support/partners';
import { freePort } from '../e2e/support/server';
import { createTestRedis, type TestRedis } from '../support/redis-server';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectRateLimited, login, uniqueEmail, uniqueIp } from './auth/helpers';

const LOGIN_LIMIT_PER_ADDRESS_AND_EMAIL = 10;

interface LogLine {
  level: number;
  msg: string;
}

/** Log lines about Redis, as the app wrote them. */
function redisLines(lines: string[]): LogLine[] {
  return lines.map((line) => JSON.parse(line) as LogLine).filter((line) => /redis/i.test(line.msg));
}

async function appOn(redisUrl: string, log: string[]): Promise<TestApp> {
  return createTestApp({
    redisPrefix: `rl:outage:${crypto.randomBytes(4).toString('hex')}:`,
    env: { REDIS_URL: redisUrl, TRUST_PROXY: '1', LOG_LEVEL: 'info' },
    logStream: { write: (line) => void log.push(line) },
  });
}

/** Ten wrong passwords from one address are allowed, the eleventh is refused: the limit holds. Returns the email. */
async function expectLoginLimitHolds(t: TestApp): Promise<string> {
  const email = uniqueEmail('limited');
  const ip = uniqueIp();
  for (let attempt = 0; attempt < LOGIN_LIMIT_PER_ADDRESS_AND_EMAIL; attempt += 1) {
    expect((await login(t.app, email, 'wrong-password', { ip })).statusCode).toBe(401);
  }
  expectRateLimited(await login(t.app, email, 'wrong-password', { ip }), 15 * 60);
  return email;
}

describe('rate limits while Redis is away', () => {
  let consoleError: MockInstance;
  beforeEach(() => {
    consoleError = vi.spyOn(console, 'error');
  });
  afterEach(() => {
    // ioredis prints "[ioredis] Unhandled error event" there when nobody listens to its errors.
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
  });

  describe('Redis stops and starts again while the app runs', () => {
    const log: string[] = [];
    let redis: TestRedis;
    let t: TestApp;
    let partner: TestPartner;
    beforeAll(async () => {
      redis = await createTestRedis();
      await redis.start();
      t = await appOn(redis.url, log);
      partner = await createPartner(t.app);
    });
    afterAll(async () => {
      await t?.close();
      await redis?.stop();
    });

    /** The values of the Redis keys naming `email`, read with a client of the test's own. */
    async function countersFor(email: string): Promise<string[]> {
      const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      await client.connect();
      try {
        const keys = (await client.keys('rl:outage:*')).filter((key) => key.includes(email));
        return keys.length > 0 ? await client.mget(keys).then((values) => values.map(String)) : [];
      } finally {
        client.disconnect();
      }
    }

    it('counts sign-in attempts in Redis while it is up', async () => {
      const email = uniqueEmail('up');
      expect((await login(t.app, email, 'wrong-password')).statusCode).toBe(401);
      expect(await countersFor(email)).toContain('1');
      expect(redisLines(log)).toEqual([]);
    });

    it('keeps sign-in working when Redis stops, with the limits counted in memory and one warning', async () => {
      await redis.stop();
      expect((await login(t.app, partner.email, partner.password)).statusCode).toBe(200);
      await expectLoginLimitHolds(t);
      expect((await login(t.app, partner.email, partner.password)).statusCode).toBe(200);
      const lines = redisLines(log);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 40, msg: expect.stringMatching(/unreachable.*memory/) });
    });

    it('counts in Redis again once it is back, and says so once', async () => {
      await redis.start();
      // Reconnection takes a moment: attempts go on being counted in memory until it is done.
      const deadline = Date.now() + 20_000;
      for (;;) {
        if (Date.now() > deadline) throw new Error('limits never reached Redis again');
        const email = uniqueEmail('back');
        expect((await login(t.app, email, 'wrong-password')).statusCode).toBe(401);
        if ((await countersFor(email)).includes('1')) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const limited = await expectLoginLimitHolds(t);
      // Eleven attempts counted for that address and email, in Redis.
      expect(await countersFor(limited)).toContain(String(LOGIN_LIMIT_PER_ADDRESS_AND_EMAIL + 1));
      const lines = redisLines(log);
      expect(lines).toHaveLength(2);
      expect(lines[1]?.msg).toMatch(/back/);
    });
  });

  describe('Redis is down when the app starts', () => {
    const log: string[] = [];
    let t: TestApp;
    beforeAll(async () => {
      t = await appOn(`redis://127.0.0.1:${await freePort()}`, log);
    });
    afterAll(() => t?.close());

    it('starts, signs in and limits attempts in memory, with one warning', async () => {
      const partner = await createPartner(t.app);
      expect((await login(t.app, partner.email, partner.password)).statusCode).toBe(200);
      await expectLoginLimitHolds(t);
      const lines = redisLines(log);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 40, msg: expect.stringMatching(/unreachable.*memory/) });
    });
  });
});
