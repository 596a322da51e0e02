import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthSession } from '../../../contract';
import { sessions, users } from '../../../server/db/schema';
import { hashPassword } from '../../../server/services/passwords';
import { createPartner, type TestPartner } from '../../support/partners';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import {
  accessWorks,
  expectError,
  expectRateLimited,
  login,
  PROXY_ENV,
  refreshCookie,
  sessionRow,
  uniqueEmail,
  uniqueIp,
} from './helpers';

const HOUR_MS = 3600 * 1000;

describe('POST /api/auth/login', () => {
  let t: TestApp;
  let partner: TestPartner;
  beforeAll(async () => {
    t = await createTestApp({ env: PROXY_ENV });
    partner = await createPartner(t.app);
  });
  afterAll(() => t.close());

  describe('success', () => {
    it('answers 200 with an access token and the wire user', async () => {
      const res = await login(t.app, partner.email, partner.password);
      expect(res.statusCode).toBe(200);
      const body = res.json<{ code: number; status: string; data: AuthSession }>();
      expect(body.code).toBe(200);
      expect(body.status).toBe('success');
      expect(body.data.access_token).toMatch(/^v4\.local\./);
      expect(body.data.user).toEqual({
        id: partner.id,
        full_name: 'Garage Test',
        email: partner.email,
        picture: null,
        role: 'partner',
        partner: { phone_number: '0555123456', location: { latitude: 36.7, longitude: 3.05, address: null } },
      });
      expect(JSON.stringify(body)).not.toContain('password');
    });

    it('gives an access token that opens the partner routes', async () => {
      const res = await login(t.app, partner.email, partner.password);
      expect(await accessWorks(t.app, res.json<{ data: AuthSession }>().data.access_token)).toBe(true);
    });

    it('sets a session refresh cookie (no Max-Age) without remember_me; the session lasts 12 hours', async () => {
      const res = await login(t.app, partner.email, partner.password);
      const cookie = refreshCookie(res);
      expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Strict');
      expect(cookie.path).toBe('/api/auth');
      expect(cookie.secure).toBeUndefined();
      expect(cookie.maxAge).toBeUndefined();
      expect(cookie.expires).toBeUndefined();
      const row = await sessionRow(t.app, cookie.value);
      expect(row?.remember_me).toBe(false);
      const lifetime = (row?.expires_at.getTime() ?? 0) - t.clock.now().getTime();
      expect(lifetime).toBeGreaterThan(12 * HOUR_MS - 60_000);
      expect(lifetime).toBeLessThanOrEqual(12 * HOUR_MS);
    });

    it('sets a 30-day cookie with remember_me; the session lasts 30 days', async () => {
      const res = await login(t.app, partner.email, partner.password, { rememberMe: true });
      const cookie = refreshCookie(res);
      expect(cookie.maxAge).toBe(30 * 24 * 3600);
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Strict');
      expect(cookie.path).toBe('/api/auth');
      const row = await sessionRow(t.app, cookie.value);
      expect(row?.remember_me).toBe(true);
      const lifetime = (row?.expires_at.getTime() ?? 0) - t.clock.now().getTime();
      expect(lifetime).toBeGreaterThan(30 * 24 * HOUR_MS - 60_000);
    });

    it('stores only the hash of the refresh token, in a new family per sign-in', async () => {
      const first = refreshCookie(await login(t.app, partner.email, partner.password)).value;
      const second = refreshCookie(await login(t.app, partner.email, partner.password)).value;
      const rows = await t.app.db.select().from(sessions).where(eq(sessions.user_id, partner.id));
      expect(rows.some((row) => row.token_hash === first || row.token_hash === second)).toBe(false);
      const [a, b] = [await sessionRow(t.app, first), await sessionRow(t.app, second)];
      expect(a?.family_id).toBeDefined();
      expect(a?.family_id).not.toBe(b?.family_id);
    });

    it('compares emails lower-cased and trimmed', async () => {
      const res = await login(t.app, `  ${partner.email.toUpperCase()} `, partner.password);
      expect(res.statusCode).toBe(200);
      expect(res.json<{ data: AuthSession }>().data.user.id).toBe(partner.id);
    });

    it('defaults remember_me to false when it is left out', async () => {
      const res = await call(t.app, 'POST', '/api/auth/login', {
        body: { email: partner.email, password: partner.password },
        headers: { 'x-forwarded-for': uniqueIp() },
      });
      expect(res.statusCode).toBe(200);
      expect(refreshCookie(res).maxAge).toBeUndefined();
    });
  });

  describe('failures', () => {
    it('answers 401 invalid_credentials for a wrong password, without a cookie', async () => {
      const res = await login(t.app, partner.email, 'not-the-password');
      expectError(res, 401, 'auth', 'invalid_credentials');
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('answers an unknown email exactly like a wrong password', async () => {
      const wrong = await login(t.app, partner.email, 'not-the-password');
      const unknown = await login(t.app, uniqueEmail('nobody'), 'not-the-password');
      expectError(unknown, 401, 'auth', 'invalid_credentials');
      expect(unknown.body).toBe(wrong.body);
    });

    it('takes about as long for an unknown email as for a wrong password (a decoy hash is checked)', async () => {
      const victim = await createPartner(t.app);
      const timeOf = async (email: string) => {
        const started = performance.now();
        await login(t.app, email, 'not-the-password');
        return performance.now() - started;
      };
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      const known: number[] = [];
      const unknown: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        known.push(await timeOf(victim.email));
        unknown.push(await timeOf(uniqueEmail('nobody')));
      }
      // Loose bounds: the point is that the unknown email also pays for an argon2id check.
      expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
    });

    it('refuses a user who has no partner record', async () => {
      const email = uniqueEmail('admin');
      await t.app.db
        .insert(users)
        .values({ email, full_name: 'Admin', password_hash: await hashPassword('admin-pass') });
      expectError(await login(t.app, email, 'admin-pass'), 401, 'auth', 'invalid_credentials');
    });

    it('answers 400 validation with fields for an invalid email or an empty password', async () => {
      const res = await login(t.app, 'not-an-email', '');
      const error = expectError(res, 400, 'validation');
      expect(error.fields).toEqual({ email: 'Adresse e-mail invalide', password: 'Le mot de passe est requis' });
    });

    it('answers 400 for a remember_me that is not a boolean', async () => {
      const res = await call(t.app, 'POST', '/api/auth/login', {
        body: { email: partner.email, password: partner.password, remember_me: 'yes' },
        headers: { 'x-forwarded-for': uniqueIp() },
      });
      expect(expectError(res, 400, 'validation').fields).toHaveProperty('remember_me');
    });

    it('answers 400 malformed_json for a broken body and 400 for no body', async () => {
      const broken = await call(t.app, 'POST', '/api/auth/login', {
        body: '{"email":',
        headers: { 'content-type': 'application/json' },
      });
      expectError(broken, 400, 'validation', 'malformed_json');
      const empty = await call(t.app, 'POST', '/api/auth/login');
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({ status: 'error' });
    });
  });

  describe('language', () => {
    it('words the error in Arabic or English after Accept-Language, French by default', async () => {
      const victim = await createPartner(t.app);
      const message = async (language?: string) => {
        const headers: Record<string, string> = language ? { 'accept-language': language } : {};
        const res = await login(t.app, victim.email, 'not-the-password', { headers });
        return expectError(res, 401, 'auth', 'invalid_credentials').message;
      };
      expect(await message()).toBe('E-mail ou mot de passe incorrect');
      expect(await message('ar-DZ,ar;q=0.9')).toBe('البريد الإلكتروني أو كلمة المرور غير صحيحة');
      expect(await message('en-GB,en;q=0.8')).toBe('Incorrect email or password');
    });
  });

  describe('rate limits', () => {
    it('allows 10 attempts per 15 minutes per address and email, then 429 with Retry-After, whatever the case', async () => {
      const victim = await createPartner(t.app);
      const ip = uniqueIp();
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const email = attempt % 2 === 0 ? victim.email : ` ${victim.email.toUpperCase()}`;
        expect((await login(t.app, email, 'wrong-password', { ip })).statusCode).toBe(401);
      }
      // Over the limit even with the right password (the per-email ceiling: login-lockout.test.ts).
      expectRateLimited(await login(t.app, victim.email, victim.password, { ip }), 15 * 60);
    });

    it('allows 50 attempts per 15 minutes per address, then 429', async () => {
      const victim = await createPartner(t.app);
      const ip = uniqueIp();
      for (let attempt = 0; attempt < 50; attempt += 1) {
        expect((await login(t.app, uniqueEmail('spray'), 'wrong-password', { ip })).statusCode).toBe(401);
      }
      expectRateLimited(await login(t.app, victim.email, victim.password, { ip }), 15 * 60);
      // Another address is not affected.
      expect((await login(t.app, victim.email, victim.password)).statusCode).toBe(200);
    });

    it('lets the email try again once the window has passed', async () => {
      const victim = await createPartner(t.app);
      for (let attempt = 0; attempt < 31; attempt += 1) await login(t.app, victim.email, 'wrong-password');
      expect((await login(t.app, victim.email, victim.password)).statusCode).toBe(429);
      // The limiter's window runs on Date.now(); faking Date alone leaves the database's timers real.
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      try {
        vi.setSystemTime(Date.now() + 15 * 60 * 1000 + 1000);
        expect((await login(t.app, victim.email, victim.password)).statusCode).toBe(200);
      } finally {
        vi.useRealTimers();
      }
    });

    it('rejects an invalid body with 400 before counting it', async () => {
      const victim = await createPartner(t.app);
      const ip = uniqueIp();
      for (let attempt = 0; attempt < 60; attempt += 1) {
        expect((await login(t.app, 'not-an-email', 'x', { ip })).statusCode).toBe(400);
      }
      expect((await login(t.app, victim.email, victim.password, { ip })).statusCode).toBe(200);
    });
  });
});
