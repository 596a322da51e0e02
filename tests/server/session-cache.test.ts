/**
 * A revoked session is refused by every instance (server/plugins/session-cache.ts): two apps on one
 * database and one Redis (the machine's, on keys of this file's own prefix) play two instances behind a
 * balancer. Revoked through one, refused by the other at once; revoked behind the cache's back, straight
 * in the database, refused within the cache's lifetime; with Redis away, refused at once (the database).
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthSession } from '../../contract';
import { sessions } from '../../server/db/schema';
import { SESSION_CACHE_TTL_MS } from '../../server/plugins/session-cache';
import { freePort } from '../e2e/support/server';
import { createPartner, type TestPartner } from '../support/partners';
import { call, createTestApp, type TestApp } from '../support/test-app';
import { expectError, login, PROXY_ENV, refresh, refreshCookie, sessionRow } from './auth/helpers';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Short, so the test waits little; long enough that a stale entry is seen before it ends. */
const TTL_MS = 3_000;

interface Device {
  access: string;
  refresh: string;
  id: string;
}

async function signIn(t: TestApp, partner: TestPartner): Promise<Device> {
  const res = await login(t.app, partner.email, partner.password);
  expect(res.statusCode).toBe(200);
  const token = refreshCookie(res).value;
  return {
    access: res.json<{ data: AuthSession }>().data.access_token,
    refresh: token,
    id: (await sessionRow(t.app, token))?.family_id ?? '',
  };
}

/** A partner call on `t`: 200, or the 401's reason. */
async function stateOn(t: TestApp, access: string): Promise<string> {
  const res = await call(t.app, 'GET', '/api/partner/repair-types', { token: access });
  return res.statusCode === 200 ? 'live' : (res.json() as { error: { reason: string } }).error.reason;
}

describe('the session cache', () => {
  it('keeps a state at most 60 s by default', () => {
    expect(SESSION_CACHE_TTL_MS).toBeGreaterThan(0);
    expect(SESSION_CACHE_TTL_MS).toBeLessThanOrEqual(60_000);
  });

  describe('two instances on one database and one Redis', () => {
    const redisPrefix = `rl:test:sessions:${crypto.randomBytes(4).toString('hex')}:`;
    let a: TestApp;
    let b: TestApp;
    let redis: Redis;
    beforeAll(async () => {
      // Instances share their token keys, as in production: a token made by one is read by the other.
      const keys = Object.fromEntries(
        ['ACCESS_TOKEN_KEY', 'RESET_TOKEN_KEY', 'HANDOVER_KEY'].map((name) => [
          name,
          crypto.randomBytes(32).toString('base64url'),
        ]),
      );
      const options = { redisPrefix, env: { ...PROXY_ENV, ...keys, REDIS_URL }, sessionCacheTtlMs: TTL_MS };
      a = await createTestApp(options);
      b = await createTestApp({ ...options, sameDatabaseAs: a });
      redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
    });
    afterAll(async () => {
      const keys = (await redis?.keys(`${redisPrefix}*`)) ?? [];
      if (keys.length > 0) await redis.del(...keys);
      redis?.disconnect();
      await b?.close();
      await a?.close();
    });

    it('keep the states in Redis, under their own prefix', async () => {
      expect(a.app.sessionCache.kind).toBe('redis');
      expect(b.app.sessionCache.kind).toBe('redis');
      const tablet = await signIn(a, await createPartner(a.app));
      expect(await stateOn(b, tablet.access)).toBe('live');
      expect(JSON.parse((await redis.get(`${redisPrefix}session:${tablet.id}`)) ?? 'null')).toMatchObject({
        state: 'live',
      });
    });

    it('a rotated cookie replayed on B within the window gets the successor A gave: one line of tokens', async () => {
      const tablet = await signIn(a, await createPartner(a.app));
      const onA = await refresh(a.app, tablet.refresh);
      const successor = refreshCookie(onA).value;
      const replays = await Promise.all([refresh(b.app, tablet.refresh), refresh(a.app, tablet.refresh)]);
      for (const replay of replays) {
        expect(replay.statusCode).toBe(200);
        expect(refreshCookie(replay).value).toBe(successor);
      }
      const rows = await a.app.db.select().from(sessions).where(eq(sessions.family_id, tablet.id));
      expect(rows).toHaveLength(2);
      expect(await stateOn(b, replays[0]!.json<{ data: AuthSession }>().data.access_token)).toBe('live');
    });

    it('a session signed out through A is refused by B at once, though B had it cached as live', async () => {
      const partner = await createPartner(a.app);
      const tablet = await signIn(a, partner);
      const phone = await signIn(b, partner);
      expect(await stateOn(b, tablet.access)).toBe('live');

      expect((await call(a.app, 'DELETE', `/api/auth/sessions/${tablet.id}`, { token: phone.access })).statusCode).toBe(
        200,
      );
      expect(await stateOn(b, tablet.access)).toBe('session_revoked');
      expectError(await refresh(b.app, tablet.refresh), 401, 'auth', 'session_revoked');
      expect(await stateOn(b, phone.access)).toBe('live');
    });

    it('the others signed out through A by a password change are refused by B at once', async () => {
      const partner = await createPartner(a.app);
      const current = await signIn(a, partner);
      const tablet = await signIn(b, partner);
      expect(await stateOn(b, tablet.access)).toBe('live');
      const body = { new_password: 'new-password-7', current_password: partner.password };
      expect((await call(a.app, 'PATCH', '/api/partner/profile', { token: current.access, body })).statusCode).toBe(
        200,
      );
      expect(await stateOn(b, tablet.access)).toBe('session_revoked');
      expect(await stateOn(b, current.access)).toBe('live');
    });

    it(`a revocation written straight into the database is refused by B within the cache's ${TTL_MS} ms`, async () => {
      const tablet = await signIn(a, await createPartner(a.app));
      expect(await stateOn(b, tablet.access)).toBe('live');
      await a.app.db.update(sessions).set({ revoked_at: a.clock.now() }).where(eq(sessions.family_id, tablet.id));
      const revokedAt = Date.now();
      // The cache did not hear of it: B still holds the session as live, until the entry ends.
      expect(await stateOn(b, tablet.access)).toBe('live');
      let state = 'live';
      while (state === 'live' && Date.now() - revokedAt < TTL_MS + 2_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        state = await stateOn(b, tablet.access);
      }
      expect(state).toBe('session_revoked');
      expect(Date.now() - revokedAt).toBeLessThanOrEqual(TTL_MS + 500);
    });
  });

  describe('with Redis unreachable', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        env: { ...PROXY_ENV, REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
        sessionCacheTtlMs: 60_000,
      });
    });
    afterAll(() => t?.close());

    it('checks each call in the database: a revocation written there is refused at once', async () => {
      const tablet = await signIn(t, await createPartner(t.app));
      expect(await stateOn(t, tablet.access)).toBe('live');
      await t.app.db.update(sessions).set({ revoked_at: t.clock.now() }).where(eq(sessions.family_id, tablet.id));
      expect(await stateOn(t, tablet.access)).toBe('session_revoked');
    });
  });
});
