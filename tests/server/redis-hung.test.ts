/**
 * A Redis that is connected but answers nothing (stopped by SIGSTOP) is skipped after its first
 * timeout, on each instance, until it answers again (plugins/redis.ts): partner calls and sign-ins no
 * longer wait for Redis's command timeout on every call, the limits count in memory and the sessions
 * are checked in the database meanwhile; once Redis answers, both go back to it.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthSession } from '../../contract';
import { createPartner, type TestPartner } from '../support/partners';
import { createTestRedis, type TestRedis } from '../support/redis-server';
import { call, createTestApp, type TestApp } from '../support/test-app';
import { login, PROXY_ENV } from './auth/helpers';

/** The Redis commands an instance sends from now on, by name (the spy calls through). */
function commandsOf(t: TestApp): { names(): string[]; stop(): void } {
  const spy = vi.spyOn(t.app.redis!.client, 'sendCommand');
  return {
    names: () => spy.mock.calls.map(([command]) => command.name.toLowerCase()),
    stop: () => spy.mockRestore(),
  };
}

describe('a hung Redis, behind two instances', () => {
  let redis: TestRedis;
  let a: TestApp;
  let b: TestApp;
  let partner: TestPartner;
  const logs: string[] = [];

  beforeAll(async () => {
    redis = await createTestRedis();
    await redis.start();
    const keys = Object.fromEntries(
      ['ACCESS_TOKEN_KEY', 'RESET_TOKEN_KEY', 'HANDOVER_KEY'].map((name) => [
        name,
        crypto.randomBytes(32).toString('base64url'),
      ]),
    );
    const options = {
      redisPrefix: `rl:hung:${crypto.randomBytes(4).toString('hex')}:`,
      env: { ...PROXY_ENV, ...keys, REDIS_URL: redis.url, LOG_LEVEL: 'warn' },
      logStream: { write: (line: string) => logs.push(line) },
    };
    a = await createTestApp(options);
    b = await createTestApp({ ...options, sameDatabaseAs: a });
    partner = await createPartner(a.app);
  });
  afterAll(async () => {
    redis?.resume();
    await b?.close();
    await a?.close();
    await redis?.stop();
  });

  const signIn = async (t: TestApp) => {
    const res = await login(t.app, partner.email, partner.password);
    expect(res.statusCode).toBe(200);
    return res.json<{ data: AuthSession }>().data.access_token;
  };
  const partnerCall = (t: TestApp, token: string) =>
    call(t.app, 'GET', '/api/partner/repair-types', { token }).then((res) => res.statusCode);

  it('is skipped by each instance after its first timeout, and used again once it answers', async () => {
    const token = await signIn(a);
    expect(await partnerCall(b, token)).toBe(200);

    redis.pause();
    // The first call on each instance waits for one command's timeout, then is answered without Redis.
    for (const t of [a, b]) expect(await partnerCall(t, token)).toBe(200);

    // From then on, no instance sends Redis anything but its probe's PING: not per call, not per sign-in.
    const sent = [commandsOf(a), commandsOf(b)];
    try {
      for (const t of [a, b]) {
        for (let i = 0; i < 5; i++) expect(await partnerCall(t, token)).toBe(200);
        await signIn(t);
      }
      for (const { names } of sent) expect(names().filter((name) => name !== 'ping')).toEqual([]);
    } finally {
      for (const { stop } of sent) stop();
    }
    expect(logs.filter((line) => line.includes('unreachable'))).toHaveLength(2);

    redis.resume();
    for (const t of [a, b]) await vi.waitFor(() => expect(t.app.redis!.ready()).toBe(true), { timeout: 5_000 });
    expect(logs.filter((line) => line.includes(' is back:'))).toHaveLength(2);
    const backInUse = commandsOf(a);
    try {
      expect(await partnerCall(a, await signIn(b))).toBe(200);
      expect(backInUse.names().length).toBeGreaterThan(0);
    } finally {
      backInUse.stop();
    }
  });
});
