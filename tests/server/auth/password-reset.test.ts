import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthSession } from '../../../contract';
import { passwordResets } from '../../../server/db/schema';
import { createPartner, type TestPartner } from '../../support/partners';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import {
  deviceCookie,
  expectError,
  expectRateLimited,
  login,
  mailFiles,
  PROXY_ENV,
  refresh,
  refreshCookie,
  resetTokenIn,
  strangerGuesses,
  uniqueEmail,
  uniqueIp,
  waitForMailTo,
} from './helpers';

const NEW_PASSWORD = 'a-brand-new-passphrase';

describe('password reset: POST /api/auth/forgot-password and /api/auth/reset-password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: PROXY_ENV });
  });
  afterAll(() => t.close());

  const forgot = (email: string, ip = uniqueIp(), headers: Record<string, string> = {}) =>
    call(t.app, 'POST', '/api/auth/forgot-password', {
      body: { email },
      headers: { 'x-forwarded-for': ip, ...headers },
    });

  const reset = (body: Record<string, unknown>, ip = uniqueIp(), headers: Record<string, string> = {}) =>
    call(t.app, 'POST', '/api/auth/reset-password', { body, headers: { 'x-forwarded-for': ip, ...headers } });

  const resetWith = (token: string, password = NEW_PASSWORD) =>
    reset({ token, new_password: password, confirm_password: password });

  /** Asks for a link and reads its token from the new mail file. */
  async function requestToken(partner: TestPartner): Promise<string> {
    const before = new Set((await mailFiles(t.dataDir)).filter((mail) => mail.includes(`To: ${partner.email}`)));
    expect((await forgot(partner.email)).statusCode).toBe(200);
    const mails = await waitForMailTo(t.dataDir, partner.email, before.size + 1);
    const mail = mails.find((candidate) => !before.has(candidate)) ?? '';
    return resetTokenIn(mail, t.config.appUrl);
  }

  describe('forgot-password', () => {
    it('answers 200 and writes a mail with the reset link for a known email', async () => {
      const partner = await createPartner(t.app);
      const res = await forgot(` ${partner.email.toUpperCase()} `);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: 200, status: 'success', data: null });
      const [mail = ''] = await waitForMailTo(t.dataDir, partner.email);
      const token = resetTokenIn(mail, t.config.appUrl);
      expect(token).toMatch(/^v4\.local\./);
      expect(mail).toContain(`${t.config.appUrl}/reset-password?token=${token}`);
      // French first, Arabic and English below, as text and HTML.
      expect(mail).toContain('Content-Type: text/plain');
      expect(mail).toContain('Content-Type: text/html');
      const french = mail.indexOf('Vous avez demandé la réinitialisation');
      const arabic = mail.indexOf('لقد طلبت إعادة تعيين كلمة مرور');
      expect(french).toBeGreaterThan(0);
      expect(arabic).toBeGreaterThan(french);
      expect(mail.indexOf('You asked to reset')).toBeGreaterThan(arabic);
      const rows = await t.app.db.select().from(passwordResets).where(eq(passwordResets.user_id, partner.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]?.used_at).toBeNull();
    });

    it('answers an unknown email exactly like a known one, and sends nothing', async () => {
      const partner = await createPartner(t.app);
      const known = await forgot(partner.email);
      const email = uniqueEmail('nobody');
      const unknown = await forgot(email);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.body).toBe(known.body);
      await waitForMailTo(t.dataDir, partner.email);
      expect((await mailFiles(t.dataDir)).some((mail) => mail.includes(email))).toBe(false);
    });

    it('answers 400 validation for a missing or invalid email', async () => {
      const missing = await call(t.app, 'POST', '/api/auth/forgot-password', { body: {} });
      expect(expectError(missing, 400, 'validation').fields).toEqual({ email: "L'adresse e-mail est requise" });
      const invalid = await forgot('not-an-email', uniqueIp(), { 'accept-language': 'ar' });
      expect(expectError(invalid, 400, 'validation').fields).toEqual({ email: 'عنوان البريد الإلكتروني غير صالح' });
    });
  });

  describe('reset-password', () => {
    it('sets the new password: sign-in works with it, no longer with the old one', async () => {
      const partner = await createPartner(t.app);
      const token = await requestToken(partner);
      const res = await resetWith(token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: 200, status: 'success', data: null });
      expect((await login(t.app, partner.email, NEW_PASSWORD)).statusCode).toBe(200);
      expectError(await login(t.app, partner.email, partner.password), 401, 'auth', 'invalid_credentials');
    });

    it('gives the browser the device cookie: strangers locking the email out no longer stop its owner', async () => {
      const partner = await createPartner(t.app);
      const res = await resetWith(await requestToken(partner));
      const device = { login_device: deviceCookie(res).value };
      await strangerGuesses(t.app, partner.email, 4, 10);
      expect((await login(t.app, partner.email, NEW_PASSWORD)).statusCode).toBe(429);
      expect((await login(t.app, partner.email, NEW_PASSWORD, { cookies: device })).statusCode).toBe(200);
    });

    it('signs the partner out everywhere: every device answers 401 session_revoked', async () => {
      const partner = await createPartner(t.app);
      const devices = await Promise.all(
        [0, 1].map(async () => {
          const signedIn = await login(t.app, partner.email, partner.password);
          return { refresh: refreshCookie(signedIn).value, access: signedIn.json<{ data: AuthSession }>().data };
        }),
      );
      expect((await resetWith(await requestToken(partner))).statusCode).toBe(200);
      for (const access of [...devices.map((device) => device.access.access_token), partner.token]) {
        const res = await call(t.app, 'GET', '/api/partner/repair-types', { token: access });
        expectError(res, 401, 'auth', 'session_revoked');
      }
      for (const device of devices) expectError(await refresh(t.app, device.refresh), 401, 'auth', 'session_revoked');
    });

    it('accepts a token once: the second use answers 400 token_invalid', async () => {
      const partner = await createPartner(t.app);
      const token = await requestToken(partner);
      expect((await resetWith(token)).statusCode).toBe(200);
      expectError(await resetWith(token, 'yet-another-password'), 400, 'validation', 'token_invalid');
      expect((await login(t.app, partner.email, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('lets only one of two simultaneous uses of a token through', async () => {
      const partner = await createPartner(t.app);
      const token = await requestToken(partner);
      const answers = await Promise.all([resetWith(token, 'first-new-password'), resetWith(token, 'second-new-pass')]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 400]);
    });

    it('refuses a token after 30 minutes', async () => {
      const partner = await createPartner(t.app);
      const token = await requestToken(partner);
      t.clock.advance(31 * 60 * 1000);
      expectError(await resetWith(token), 400, 'validation', 'token_invalid');
      expect((await login(t.app, partner.email, partner.password)).statusCode).toBe(200);
    });

    it('refuses an older link once the password has changed', async () => {
      const partner = await createPartner(t.app);
      const older = await requestToken(partner);
      t.clock.advance(1000);
      const newer = await requestToken(partner);
      expect(newer).not.toBe(older);
      expect((await resetWith(newer)).statusCode).toBe(200);
      expectError(await resetWith(older, 'attacker-password'), 400, 'validation', 'token_invalid');
    });

    it('refuses an access token (a token of the wrong kind) and a forged one', async () => {
      const partner = await createPartner(t.app);
      expectError(await resetWith(partner.token), 400, 'validation', 'token_invalid');
      expectError(await resetWith('v4.local.forged-token'), 400, 'validation', 'token_invalid');
      expect((await login(t.app, partner.email, partner.password)).statusCode).toBe(200);
    });

    it('words token_invalid after Accept-Language', async () => {
      const body = { token: 'v4.local.forged', new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD };
      const en = expectError(await reset(body, uniqueIp(), { 'accept-language': 'en' }), 400, 'validation');
      expect(en.message).toBe('Invalid or expired reset link');
      const ar = expectError(await reset(body, uniqueIp(), { 'accept-language': 'ar' }), 400, 'validation');
      expect(ar.message).toBe('رابط إعادة التعيين غير صالح أو منتهي الصلاحية');
    });

    it('reports a confirmation that does not match on confirm_password, and keeps the token', async () => {
      const partner = await createPartner(t.app);
      const token = await requestToken(partner);
      const res = await reset({ token, new_password: NEW_PASSWORD, confirm_password: 'something-else' });
      const error = expectError(res, 400, 'validation');
      expect(error.fields).toEqual({ confirm_password: 'Les mots de passe ne correspondent pas' });
      expect((await resetWith(token)).statusCode).toBe(200);
    });

    it('answers 400 validation for a short password, a token without the v4. prefix, or no body', async () => {
      const short = await reset({ token: 'v4.local.x', new_password: 'short', confirm_password: 'short' });
      expect(expectError(short, 400, 'validation').fields).toHaveProperty('new_password');
      const prefix = await reset({ token: 'v2.local.x', new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
      expect(expectError(prefix, 400, 'validation').fields).toHaveProperty('token');
      expectError(await call(t.app, 'POST', '/api/auth/reset-password'), 400, 'validation');
    });
  });

  describe('rate limits', () => {
    it('forgot-password: 3 per hour per email (normalised), then 429 with Retry-After', async () => {
      const partner = await createPartner(t.app);
      for (const email of [partner.email, partner.email.toUpperCase(), ` ${partner.email}`]) {
        expect((await forgot(email)).statusCode).toBe(200);
      }
      expectRateLimited(await forgot(partner.email), 3600);
      await waitForMailTo(t.dataDir, partner.email, 3);
    });

    it('forgot-password: 20 per hour per address, then 429', async () => {
      const ip = uniqueIp();
      for (let attempt = 0; attempt < 20; attempt += 1) {
        expect((await forgot(uniqueEmail('spray'), ip)).statusCode).toBe(200);
      }
      expectRateLimited(await forgot(uniqueEmail('spray'), ip), 3600);
    });

    it('reset-password: 10 per 15 minutes per address, then 429', async () => {
      const ip = uniqueIp();
      const body = { token: 'v4.local.guess', new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD };
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expect((await reset(body, ip)).statusCode).toBe(400);
      }
      expectRateLimited(await reset(body, ip), 15 * 60);
    });
  });
});
