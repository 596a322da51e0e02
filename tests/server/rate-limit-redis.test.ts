/**
 * With REDIS_URL, rate limits live in Redis: two API instances count the same attempts, so a
 * client cannot get twice the attempts by alternating between them.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../support/test-app';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The ceiling per email across addresses, for clients without a device cookie. */
const LOGIN_LIMIT_PER_EMAIL = 30;

describe('rate limits shared through Redis', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    const redisPrefix = `rl:test:${crypto.randomBytes(4).toString('hex')}:`;
    const options = { redisPrefix, env: { REDIS_URL, TRUST_PROXY: '1' } };
    [first, second] = await Promise.all([createTestApp(options), createTestApp(options)]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('counts sign-in attempts for one email across both instances', async () => {
    const email = `nobody-${crypto.randomBytes(4).toString('hex')}@example.dz`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < LOGIN_LIMIT_PER_EMAIL + 2; attempt++) {
      const app = attempt % 2 === 0 ? first.app : second.app;
      const res = await call(app, 'POST', '/api/auth/login', {
        body: { email, password: 'wrong-password', remember_me: false },
        headers: { 'x-forwarded-for': `10.9.0.${attempt + 1}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, LOGIN_LIMIT_PER_EMAIL).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(LOGIN_LIMIT_PER_EMAIL)).toEqual([429, 429]);
    const limited = await call(second.app, 'POST', '/api/auth/login', {
      body: { email, password: 'wrong-password', remember_me: false },
      headers: { 'x-forwarded-for': '10.9.1.1' },
    });
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.json()).toMatchObject({ code: 429, status: 'error', error: { type: 'rate_limited' } });
  });
});
