import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthSession } from '../../../contract';
import { sessions } from '../../../server/db/schema';
import { REFRESH_MAX_PER_WINDOW } from '../../../server/routes/auth/refresh';
import { hashToken, ROTATION_GRACE_MS } from '../../../server/services/sessions';
import { createPartner, type TestPartner } from '../../support/partners';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import {
  accessWorks,
  expectClearedCookie,
  expectError,
  PROXY_ENV,
  refresh,
  refreshCookie,
  sessionRow,
  signInTokens,
} from './helpers';

describe('POST /api/auth/refresh', () => {
  let t: TestApp;
  let partner: TestPartner;
  beforeAll(async () => {
    t = await createTestApp({ env: PROXY_ENV });
    partner = await createPartner(t.app);
  });
  afterAll(() => t.close());

  /**
   * A fresh sign-in: its refresh token and access token. By default a new partner each time, so the
   * per-email sign-in limit never gets in the way.
   */
  const signIn = async (options: { rememberMe?: boolean; as?: TestPartner } = {}) =>
    signInTokens(t.app, options.as ?? (await createPartner(t.app)), options);

  async function familyRows(familyId: string) {
    return t.app.db.select().from(sessions).where(eq(sessions.family_id, familyId));
  }

  describe('rotation', () => {
    it('answers 200 with a new access token, the user and a new refresh cookie', async () => {
      const first = await signIn({ as: partner });
      const res = await refresh(t.app, first.refresh);
      expect(res.statusCode).toBe(200);
      const body = res.json<{ code: number; status: string; data: AuthSession }>();
      expect(body).toMatchObject({ code: 200, status: 'success' });
      expect(body.data.user.id).toBe(partner.id);
      expect(body.data.user.email).toBe(partner.email);
      expect(body.data.access_token).toMatch(/^v4\.local\./);
      expect(body.data.access_token).not.toBe(first.access);
      expect(await accessWorks(t.app, body.data.access_token)).toBe(true);
      const cookie = refreshCookie(res);
      expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(cookie.value).not.toBe(first.refresh);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
      expect(cookie.maxAge).toBeUndefined();
    });

    it('marks the old row rotated and adds a row to the same family', async () => {
      const first = await signIn();
      const old = await sessionRow(t.app, first.refresh);
      const res = await refresh(t.app, first.refresh);
      const next = await sessionRow(t.app, refreshCookie(res).value);
      const rotated = await sessionRow(t.app, first.refresh);
      expect(rotated?.rotated_at).toBeInstanceOf(Date);
      expect(rotated?.revoked_at).toBeNull();
      expect(next?.family_id).toBe(old?.family_id);
      expect(next?.id).not.toBe(old?.id);
      expect(next?.rotated_at).toBeNull();
      expect(next?.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(await familyRows(old?.family_id ?? '')).toHaveLength(2);
    });

    it('keeps remember_me across rotations: a 30-day cookie and session', async () => {
      const first = await signIn({ rememberMe: true });
      const res = await refresh(t.app, first.refresh);
      const cookie = refreshCookie(res);
      expect(cookie.maxAge).toBe(30 * 24 * 3600);
      expect((await sessionRow(t.app, cookie.value))?.remember_me).toBe(true);
    });

    it('chains: each new token refreshes in turn and the old access token stays valid', async () => {
      const first = await signIn();
      let token = first.refresh;
      for (let round = 0; round < 3; round += 1) {
        const res = await refresh(t.app, token);
        expect(res.statusCode).toBe(200);
        token = refreshCookie(res).value;
      }
      expect(await accessWorks(t.app, first.access)).toBe(true);
    });

    it('ignores an empty JSON body sent with Content-Type: application/json', async () => {
      const { refresh: token } = await signIn();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: { 'x-origin': 'http://localhost:8080', 'content-type': 'application/json' },
        cookies: { refresh_token: token },
      });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('a token that cannot be used', () => {
    it('answers 401 session_expired and clears the cookie when there is no cookie', async () => {
      const res = await refresh(t.app, undefined);
      expectError(res, 401, 'auth', 'session_expired');
      expectClearedCookie(res);
    });

    it.each([
      ['an unknown token', 'A'.repeat(43)],
      ['a malformed token', 'not a token; at all'],
      ['an empty token', ''],
    ])('answers 401 session_expired for %s', async (_label, token) => {
      const res = await refresh(t.app, token);
      expectError(res, 401, 'auth', 'session_expired');
      expectClearedCookie(res);
    });

    it('answers 401 for an expired session (12 hours without remember_me)', async () => {
      const { refresh: token } = await signIn();
      t.clock.advance(12 * 3600 * 1000 + 1000);
      const res = await refresh(t.app, token);
      expectError(res, 401, 'auth', 'session_expired');
      expectClearedCookie(res);
    });

    it('answers 401 session_revoked for a revoked session', async () => {
      const { refresh: token } = await signIn();
      const row = await sessionRow(t.app, token);
      await t.app.db
        .update(sessions)
        .set({ revoked_at: t.clock.now() })
        .where(eq(sessions.id, row?.id ?? ''));
      expectError(await refresh(t.app, token), 401, 'auth', 'session_revoked');
    });

    it('words the 401 after Accept-Language', async () => {
      const en = expectError(await refresh(t.app, undefined, { 'accept-language': 'en' }), 401, 'auth');
      expect(en.message).toBe('Your session has expired, please log in again');
      const ar = expectError(await refresh(t.app, undefined, { 'accept-language': 'ar' }), 401, 'auth');
      expect(ar.message).toBe('انتهت صلاحية جلستك، يرجى تسجيل الدخول مجددًا');
    });
  });

  describe('reuse of a rotated token', () => {
    it('within the grace window, answers the successor the first refresh got, however often: no branch', async () => {
      const first = await signIn();
      const family = (await sessionRow(t.app, first.refresh))?.family_id ?? '';
      const tabA = await refresh(t.app, first.refresh);
      const successor = refreshCookie(tabA).value;
      expect(successor).not.toBe(first.refresh);
      // The replay: one rotated cookie presented 20 times within the window.
      for (let i = 0; i < 20; i++) {
        t.clock.advance(400);
        const replay = await refresh(t.app, first.refresh);
        expect(replay.statusCode).toBe(200);
        expect(refreshCookie(replay).value).toBe(successor);
        expect(replay.json<{ data: AuthSession }>().data.access_token).toBeTruthy();
      }
      expect(await familyRows(family)).toHaveLength(2);
      // Both holders are on one line: the next rotation is one, and its repeat within the window the same.
      const next = refreshCookie(await refresh(t.app, successor)).value;
      expect(refreshCookie(await refresh(t.app, successor)).value).toBe(next);
      expect(await familyRows(family)).toHaveLength(3);
      expect((await familyRows(family)).every((row) => row.revoked_at === null)).toBe(true);
    });

    it('two refreshes with the same token at the same moment both get its one successor', async () => {
      const first = await signIn();
      const family = (await sessionRow(t.app, first.refresh))?.family_id ?? '';
      const answers = await Promise.all([refresh(t.app, first.refresh), refresh(t.app, first.refresh)]);
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200]);
      const tokens = answers.map((res) => refreshCookie(res).value);
      expect(new Set(tokens).size).toBe(1);
      expect(await familyRows(family)).toHaveLength(2);
    });

    it('a rotated token whose successor is another (a branch) ends the family, within the window too', async () => {
      const first = await signIn();
      const family = (await sessionRow(t.app, first.refresh))?.family_id ?? '';
      const successor = refreshCookie(await refresh(t.app, first.refresh)).value;
      // As a successor made another way would be: the row the rotation made no longer answers to it.
      await t.app.db
        .update(sessions)
        .set({ token_hash: hashToken('another-successor') })
        .where(eq(sessions.token_hash, hashToken(successor)));
      t.clock.advance(1_000);
      const replay = await refresh(t.app, first.refresh);
      expectError(replay, 401, 'auth', 'session_revoked');
      expect((await familyRows(family)).every((row) => row.revoked_at instanceof Date)).toBe(true);
    });

    it('after the grace window, revokes the whole family: 401, every token and access token stop working', async () => {
      const first = await signIn();
      const family = (await sessionRow(t.app, first.refresh))?.family_id ?? '';
      const rotated = await refresh(t.app, first.refresh);
      const current = refreshCookie(rotated).value;
      const currentAccess = rotated.json<{ data: AuthSession }>().data.access_token;
      expect(await accessWorks(t.app, currentAccess)).toBe(true);

      t.clock.advance(ROTATION_GRACE_MS + 1000);
      const reuse = await refresh(t.app, first.refresh);
      expectError(reuse, 401, 'auth', 'session_revoked');
      expectClearedCookie(reuse);

      const rows = await familyRows(family);
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(rows.every((row) => row.revoked_at instanceof Date)).toBe(true);
      expectError(await refresh(t.app, current), 401, 'auth', 'session_revoked');
      expect(await accessWorks(t.app, currentAccess)).toBe(false);
      expect(await accessWorks(t.app, first.access)).toBe(false);
    });

    it('does not touch the other session families of the same partner', async () => {
      const other = await signIn({ as: partner });
      const victim = await signIn({ as: partner });
      await refresh(t.app, victim.refresh);
      t.clock.advance(ROTATION_GRACE_MS + 1000);
      expect((await refresh(t.app, victim.refresh)).statusCode).toBe(401);
      expect(await accessWorks(t.app, other.access)).toBe(true);
      expect((await refresh(t.app, other.refresh)).statusCode).toBe(200);
    });
  });

  describe('rate limit', () => {
    it(`turns away more than ${REFRESH_MAX_PER_WINDOW} refreshes of one family in a minute: 429, the session kept`, async () => {
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      try {
        const first = await signIn();
        const family = (await sessionRow(t.app, first.refresh))?.family_id ?? '';
        let token = first.refresh;
        for (let i = 0; i < REFRESH_MAX_PER_WINDOW; i++) {
          t.clock.advance(ROTATION_GRACE_MS + 1);
          const res = await refresh(t.app, token);
          expect(res.statusCode).toBe(200);
          token = refreshCookie(res).value;
        }
        const rows = (await familyRows(family)).length;
        const refused = await refresh(t.app, token);
        expectError(refused, 429, 'rate_limited', 'rate_limited');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(refused.headers['set-cookie']).toBeUndefined();
        expect(await familyRows(family)).toHaveLength(rows);
        // Another family of the same partner is not counted with it.
        expect((await refresh(t.app, (await signIn({ as: partner })).refresh)).statusCode).toBe(200);
        // Once the minute is over, the same cookie works.
        vi.setSystemTime(Date.now() + 61_000);
        expect((await refresh(t.app, token)).statusCode).toBe(200);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('X-Origin', () => {
    it('answers 403 forbidden_origin without X-Origin, and leaves the session and cookie alone', async () => {
      const { refresh: token } = await signIn();
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { refresh_token: token } });
      expectError(res, 403, 'forbidden', 'forbidden_origin');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect((await sessionRow(t.app, token))?.rotated_at).toBeNull();
      expect((await refresh(t.app, token)).statusCode).toBe(200);
    });

    it('answers 403 for a foreign origin', async () => {
      const { refresh: token } = await signIn();
      for (const origin of ['https://evil.example', 'http://localhost:8081', 'null']) {
        const res = await call(t.app, 'POST', '/api/auth/refresh', {
          headers: { 'x-origin': origin },
          cookies: { refresh_token: token },
        });
        expectError(res, 403, 'forbidden', 'forbidden_origin');
      }
    });
  });
});
