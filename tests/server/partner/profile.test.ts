import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../contract';
import { partners, passwordResets, users } from '../../../server/db/schema';
import { createPartner, type TestPartner } from '../../support/partners';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import {
  accessWorks,
  expectError,
  expectRateLimited,
  login,
  PROXY_ENV,
  refresh,
  uniqueEmail,
  signInTokens,
} from '../auth/helpers';

describe('PATCH /api/partner/profile', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: PROXY_ENV });
  });
  afterAll(() => t.close());

  const patch = (token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
    call(t.app, 'PATCH', '/api/partner/profile', { body, headers, ...(token ? { token } : {}) });

  const userOf = (res: Awaited<ReturnType<typeof patch>>) => res.json<{ data: User }>().data;

  async function storedUser(id: string) {
    const [row] = await t.app.db
      .select()
      .from(users)
      .innerJoin(partners, eq(partners.user_id, users.id))
      .where(eq(users.id, id));
    return row;
  }

  const signIn = (partner: TestPartner) => signInTokens(t.app, partner);

  describe('name, phone and location', () => {
    it('updates them and answers 200 with the updated user', async () => {
      const partner = await createPartner(t.app);
      const res = await patch(partner.token, {
        full_name: '  Garage Bab Ezzouar  ',
        phone_number: '021123456',
        location: { latitude: 36.71, longitude: 3.21, address: 'Bab Ezzouar, Alger' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ code: 200, status: 'success' });
      expect(userOf(res)).toEqual({
        id: partner.id,
        full_name: 'Garage Bab Ezzouar',
        email: partner.email,
        picture: null,
        role: 'partner',
        partner: {
          phone_number: '021123456',
          location: { latitude: 36.71, longitude: 3.21, address: 'Bab Ezzouar, Alger' },
        },
      });
      const stored = await storedUser(partner.id);
      expect(stored?.users.full_name).toBe('Garage Bab Ezzouar');
      expect(stored?.partners).toMatchObject({ phone_number: '021123456', latitude: 36.71, longitude: 3.21 });
    });

    it('changes only the fields sent; an empty update answers the unchanged user', async () => {
      const partner = await createPartner(t.app);
      const before = userOf(await patch(partner.token, {}));
      expect(before.full_name).toBe('Garage Test');
      const res = await patch(partner.token, { phone_number: '0661234567' });
      expect(userOf(res)).toEqual({ ...before, partner: { ...before.partner, phone_number: '0661234567' } });
    });

    it('replaces the address with the new point (cleared when none is sent)', async () => {
      const partner = await createPartner(t.app);
      await patch(partner.token, { location: { latitude: 36.7, longitude: 3.1, address: 'Old address' } });
      const res = await patch(partner.token, { location: { latitude: 35.69, longitude: -0.63 } });
      expect(userOf(res).partner.location).toEqual({ latitude: 35.69, longitude: -0.63, address: null });
    });

    it('needs no current password for these fields', async () => {
      const partner = await createPartner(t.app);
      expect((await patch(partner.token, { full_name: 'Sans mot de passe' })).statusCode).toBe(200);
    });
  });

  describe('email', () => {
    it('answers 400 current_password_required without the current password', async () => {
      const partner = await createPartner(t.app);
      const res = await patch(partner.token, { email: uniqueEmail('new') });
      const error = expectError(res, 400, 'validation', 'current_password_required');
      expect(Object.keys(error.fields ?? {})).toEqual(['current_password']);
      expect((await storedUser(partner.id))?.users.email).toBe(partner.email);
    });

    it('answers 400 current_password_wrong with a wrong one, worded after Accept-Language', async () => {
      const partner = await createPartner(t.app);
      const body = { email: uniqueEmail('new'), current_password: 'not-my-password' };
      const fr = expectError(await patch(partner.token, body), 400, 'validation', 'current_password_wrong');
      expect(fr.fields).toEqual({ current_password: 'Le mot de passe actuel est incorrect' });
      const ar = expectError(await patch(partner.token, body, { 'accept-language': 'ar' }), 400, 'validation');
      expect(ar.fields).toEqual({ current_password: 'كلمة المرور الحالية غير صحيحة' });
      const en = expectError(await patch(partner.token, body, { 'accept-language': 'en' }), 400, 'validation');
      expect(en.message).toBe('The current password is incorrect');
      expect((await storedUser(partner.id))?.users.email).toBe(partner.email);
    });

    it('changes it with the current password, lower-cased; sign-in then uses the new email', async () => {
      const partner = await createPartner(t.app);
      const email = uniqueEmail('Moved');
      const res = await patch(partner.token, { email: ` ${email.toUpperCase()} `, current_password: partner.password });
      expect(res.statusCode).toBe(200);
      expect(userOf(res).email).toBe(email.toLowerCase());
      expect((await login(t.app, email, partner.password)).statusCode).toBe(200);
      expectError(await login(t.app, partner.email, partner.password), 401, 'auth', 'invalid_credentials');
    });

    it('voids reset links already sent to the old address', async () => {
      const partner = await createPartner(t.app);
      const now = t.clock.now();
      await t.app.db
        .insert(passwordResets)
        .values({ user_id: partner.id, created_at: now, expires_at: new Date(now.getTime() + 30 * 60 * 1000) });
      await patch(partner.token, { email: uniqueEmail('moved'), current_password: partner.password });
      const rows = await t.app.db.select().from(passwordResets).where(eq(passwordResets.user_id, partner.id));
      expect(rows.every((row) => row.used_at instanceof Date)).toBe(true);
    });

    it('treats the same address in another case as no change: no password needed', async () => {
      const partner = await createPartner(t.app);
      const res = await patch(partner.token, { email: partner.email.toUpperCase() });
      expect(res.statusCode).toBe(200);
      expect(userOf(res).email).toBe(partner.email);
    });

    it("answers 409 email_taken for another partner's address, in any case", async () => {
      const partner = await createPartner(t.app);
      const other = await createPartner(t.app);
      for (const email of [other.email, other.email.toUpperCase()]) {
        const res = await patch(partner.token, { email, current_password: partner.password, full_name: 'Pirate' });
        expectError(res, 409, 'conflict', 'email_taken');
      }
      const stored = await storedUser(partner.id);
      expect(stored?.users.email).toBe(partner.email);
      // The whole update was refused, not just the email.
      expect(stored?.users.full_name).toBe('Garage Test');
    });

    it('answers 400 for an invalid email', async () => {
      const partner = await createPartner(t.app);
      const res = await patch(partner.token, { email: 'nope', current_password: partner.password });
      expect(expectError(res, 400, 'validation').fields).toEqual({ email: 'Adresse e-mail invalide' });
    });
  });

  describe('password', () => {
    it('answers 400 current_password_required and current_password_wrong, leaving the password alone', async () => {
      const partner = await createPartner(t.app);
      expectError(
        await patch(partner.token, { new_password: 'new-password-1' }),
        400,
        'validation',
        'current_password_required',
      );
      expectError(
        await patch(partner.token, { new_password: 'new-password-1', current_password: '' }),
        400,
        'validation',
        'current_password_required',
      );
      expectError(
        await patch(partner.token, { new_password: 'new-password-1', current_password: 'wrong-password' }),
        400,
        'validation',
        'current_password_wrong',
      );
      expect((await login(t.app, partner.email, partner.password)).statusCode).toBe(200);
    });

    it('changes it: the new one signs in, the old one no longer', async () => {
      const partner = await createPartner(t.app);
      const res = await patch(partner.token, { new_password: 'new-password-1', current_password: partner.password });
      expect(res.statusCode).toBe(200);
      expect(userOf(res).id).toBe(partner.id);
      const stored = await storedUser(partner.id);
      expect(stored?.users.password_hash).toMatch(/^\$argon2id\$/);
      expect((await login(t.app, partner.email, 'new-password-1')).statusCode).toBe(200);
      expectError(await login(t.app, partner.email, partner.password), 401, 'auth', 'invalid_credentials');
    });

    it('signs out every other session of the partner and keeps the current one', async () => {
      const partner = await createPartner(t.app);
      const current = await signIn(partner);
      const other = await signIn(partner);
      const res = await patch(current.access, { new_password: 'new-password-2', current_password: partner.password });
      expect(res.statusCode).toBe(200);
      expect(await accessWorks(t.app, current.access)).toBe(true);
      expect((await refresh(t.app, current.refresh)).statusCode).toBe(200);
      expect(await accessWorks(t.app, other.access)).toBe(false);
      expect(await accessWorks(t.app, partner.token)).toBe(false);
      expectError(await refresh(t.app, other.refresh), 401, 'auth', 'session_revoked');
    });

    /** A partner signed in on two devices besides the one changing the password (and its database session). */
    async function threeDevices() {
      const partner = await createPartner(t.app);
      return { partner, current: await signIn(partner), tablet: await signIn(partner), phone: await signIn(partner) };
    }

    /** What a partner call with `access` answers: 200, or the 401's reason. */
    async function stateOf(access: string) {
      const res = await call(t.app, 'GET', '/api/partner/repair-types', { token: access });
      return res.statusCode === 200 ? 'live' : (res.json() as { error: { reason: string } }).error.reason;
    }

    it.each([
      ['sign_out_others: true', { sign_out_others: true }],
      ['sign_out_others left out', {}],
    ])('with %s, ends every other session of the partner, at once', async (_label, choice) => {
      const { partner, current, tablet, phone } = await threeDevices();
      const body = { new_password: 'new-password-4', current_password: partner.password, ...choice };
      expect((await patch(current.access, body)).statusCode).toBe(200);
      expect(await stateOf(current.access)).toBe('live');
      for (const other of [tablet, phone]) {
        expect(await stateOf(other.access)).toBe('session_revoked');
        expectError(await refresh(t.app, other.refresh), 401, 'auth', 'session_revoked');
      }
      expect(await stateOf(partner.token)).toBe('session_revoked');
    });

    it('with sign_out_others: false, keeps every other session', async () => {
      const { partner, current, tablet, phone } = await threeDevices();
      const body = { new_password: 'new-password-5', current_password: partner.password, sign_out_others: false };
      expect((await patch(current.access, body)).statusCode).toBe(200);
      for (const session of [current, tablet, phone]) {
        expect(await stateOf(session.access)).toBe('live');
        expect((await refresh(t.app, session.refresh)).statusCode).toBe(200);
      }
      expect(await stateOf(partner.token)).toBe('live');
      // The password changed all the same.
      expect((await login(t.app, partner.email, 'new-password-5')).statusCode).toBe(200);
    });

    it('ends no session with sign_out_others but no new password', async () => {
      const { partner, current, tablet } = await threeDevices();
      expect((await patch(current.access, { full_name: 'Garage Kouba', sign_out_others: true })).statusCode).toBe(200);
      expect(await stateOf(tablet.access)).toBe('live');
      expect(await stateOf(partner.token)).toBe('live');
    });

    it('answers 400 invalid_request for a sign_out_others that is not a boolean', async () => {
      const partner = await createPartner(t.app);
      const body = { new_password: 'new-password-6', current_password: partner.password, sign_out_others: 'yes' };
      expectError(await patch(partner.token, body), 400, 'validation', 'invalid_request');
    });

    it('answers 400 for a new password that is too short', async () => {
      const partner = await createPartner(t.app);
      const res = await patch(partner.token, { new_password: 'short', current_password: partner.password });
      expect(expectError(res, 400, 'validation').fields).toEqual({
        new_password: 'Le mot de passe doit contenir au moins 8 caractères',
      });
    });

    it('limits wrong current passwords to 10 per 15 minutes per partner', async () => {
      const partner = await createPartner(t.app);
      const body = { new_password: 'new-password-3', current_password: 'guess' };
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expectError(await patch(partner.token, body), 400, 'validation', 'current_password_wrong');
      }
      expectRateLimited(await patch(partner.token, { ...body, current_password: partner.password }), 15 * 60);
      // Fields that need no password still go through.
      expect((await patch(partner.token, { full_name: 'Toujours possible' })).statusCode).toBe(200);
    });
  });

  describe('validation', () => {
    it.each([
      ['a bad phone number', { phone_number: '12345' }, 'phone_number'],
      ['an empty full name', { full_name: '' }, 'full_name'],
      ['a longitude out of range', { location: { latitude: 36, longitude: 181 } }, 'location'],
      ['a location without latitude', { location: { longitude: 3 } }, 'location'],
      ['a number as full name', { full_name: 42 }, 'full_name'],
    ])('answers 400 validation for %s', async (_label, body, field) => {
      const partner = await createPartner(t.app);
      const error = expectError(await patch(partner.token, body), 400, 'validation');
      expect(Object.keys(error.fields ?? {})).toEqual([field]);
    });

    it('answers 400 for a body that is not an object, and for malformed JSON', async () => {
      const partner = await createPartner(t.app);
      expectError(await patch(partner.token, [1]), 400, 'validation');
      const res = await call(t.app, 'PATCH', '/api/partner/profile', {
        token: partner.token,
        body: '{"full_name":',
        headers: { 'content-type': 'application/json' },
      });
      expectError(res, 400, 'validation', 'malformed_json');
    });
  });

  describe('access', () => {
    it('answers 401 without a token, with a forged one, and after logout', async () => {
      expectError(await patch(undefined, { full_name: 'X' }), 401, 'auth', 'unauthorized');
      expectError(await patch('v4.local.forged', { full_name: 'X' }), 401, 'auth', 'session_expired');
      const partner = await createPartner(t.app);
      const session = await signIn(partner);
      await call(t.app, 'POST', '/api/auth/logout/partner', { cookies: { refresh_token: session.refresh } });
      expectError(await patch(session.access, { full_name: 'X' }), 401, 'auth', 'session_revoked');
    });

    it("changes only the token owner's profile, whatever ids the body carries", async () => {
      const owner = await createPartner(t.app);
      const bystander = await createPartner(t.app);
      const before = await storedUser(bystander.id);
      const res = await patch(owner.token, {
        id: bystander.id,
        user_id: bystander.id,
        full_name: 'Owner Renamed',
        phone_number: '0770000000',
        new_password: 'owner-new-password',
        current_password: owner.password,
      });
      expect(res.statusCode).toBe(200);
      expect(userOf(res).id).toBe(owner.id);
      expect((await storedUser(owner.id))?.users.full_name).toBe('Owner Renamed');
      expect(await storedUser(bystander.id)).toEqual(before);
      expect((await login(t.app, bystander.email, bystander.password)).statusCode).toBe(200);
      expect(await accessWorks(t.app, bystander.token)).toBe(true);
    });
  });
});
