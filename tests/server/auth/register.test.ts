import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthSession } from '../../../contract';
import { partners, users } from '../../../server/db/schema';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import {
  accessWorks,
  expectError,
  expectRateLimited,
  login,
  PROXY_ENV,
  refreshCookie,
  registerBody,
  sessionRow,
  uniqueEmail,
  uniqueIp,
} from './helpers';

const URL = '/api/auth/register/partner';

describe('POST /api/auth/register/partner', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: PROXY_ENV });
  });
  afterAll(() => t.close());

  const post = (body: unknown, ip = uniqueIp(), headers: Record<string, string> = {}) =>
    call(t.app, 'POST', URL, { body, headers: { 'x-forwarded-for': ip, ...headers } });

  async function partnerRow(userId: string) {
    const [row] = await t.app.db.select().from(partners).where(eq(partners.user_id, userId));
    return row;
  }

  describe('success', () => {
    it('answers 201 with an access token and the new user, and signs them in', async () => {
      const body = registerBody({ location: { latitude: 36.75, longitude: 3.06, address: 'Rue Didouche Mourad' } });
      const res = await post(body);
      expect(res.statusCode).toBe(201);
      const envelope = res.json<{ code: number; status: string; data: AuthSession }>();
      expect(envelope).toMatchObject({ code: 201, status: 'success' });
      expect(envelope.data.user).toEqual({
        id: expect.any(String),
        full_name: body.full_name,
        email: body.email,
        picture: null,
        role: 'partner',
        partner: {
          phone_number: '0555123456',
          location: { latitude: 36.75, longitude: 3.06, address: 'Rue Didouche Mourad' },
        },
      });
      expect(await accessWorks(t.app, envelope.data.access_token)).toBe(true);
    });

    it('sets a session refresh cookie, as a sign-in without remember_me', async () => {
      const res = await post(registerBody());
      const cookie = refreshCookie(res);
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Strict');
      expect(cookie.path).toBe('/api/auth');
      expect(cookie.maxAge).toBeUndefined();
      const row = await sessionRow(t.app, cookie.value);
      expect(row?.remember_me).toBe(false);
      expect(row?.user_id).toBe(res.json<{ data: AuthSession }>().data.user.id);
    });

    it('stores the email lower-cased and trimmed, a hash for the password and the acceptance time', async () => {
      const email = uniqueEmail('Mixed.Case');
      const res = await post(registerBody({ email: `  ${email.toUpperCase()}  ` }));
      const { user } = res.json<{ data: AuthSession }>().data;
      expect(user.email).toBe(email.toLowerCase());
      const [stored] = await t.app.db.select().from(users).where(eq(users.id, user.id));
      expect(stored?.email).toBe(email.toLowerCase());
      expect(stored?.password_hash).toMatch(/^\$argon2id\$/);
      const partner = await partnerRow(user.id);
      expect(partner?.conditions_accepted_at).toBeInstanceOf(Date);
      expect(partner?.phone_number).toBe('0555123456');
    });

    it('leaves conditions_accepted_at empty when privacy_conditions is not sent', async () => {
      const { privacy_conditions: _omitted, ...body } = registerBody();
      const res = await post(body);
      expect(res.statusCode).toBe(201);
      const partner = await partnerRow(res.json<{ data: AuthSession }>().data.user.id);
      expect(partner?.conditions_accepted_at).toBeNull();
    });

    it('accepts landline and 10-digit numbers and stores the digits', async () => {
      for (const phone of ['021123456', '05551234567']) {
        const res = await post(registerBody({ phone_number: ` ${phone} ` }));
        expect(res.statusCode).toBe(201);
        expect(res.json<{ data: AuthSession }>().data.user.partner.phone_number).toBe(phone);
      }
    });

    it('lets the new partner sign in with the password', async () => {
      const body = registerBody();
      await post(body);
      expect((await login(t.app, body.email, body.password)).statusCode).toBe(200);
    });
  });

  describe('email already registered', () => {
    it('answers 409 conflict email_taken, in any case, without a cookie', async () => {
      const body = registerBody();
      expect((await post(body)).statusCode).toBe(201);
      for (const email of [body.email, body.email.toUpperCase()]) {
        const res = await post({ ...body, email, full_name: 'Someone Else' });
        const error = expectError(res, 409, 'conflict', 'email_taken');
        expect(error.message).toBe('Impossible de créer un compte avec cette adresse e-mail');
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      const rows = await t.app.db.select().from(users).where(eq(users.email, body.email));
      expect(rows).toHaveLength(1);
      expect(rows[0]?.full_name).toBe(body.full_name);
    });

    it('words it in English or Arabic after Accept-Language', async () => {
      const body = registerBody();
      await post(body);
      const en = expectError(await post(body, uniqueIp(), { 'accept-language': 'en' }), 409, 'conflict');
      expect(en.message).toBe('Unable to create an account with this email address');
      const ar = expectError(await post(body, uniqueIp(), { 'accept-language': 'ar' }), 409, 'conflict');
      expect(ar.message).toBe('تعذّر إنشاء حساب بعنوان البريد الإلكتروني هذا');
    });

    it('gives exactly one 201 when two registrations with the same email arrive at once', async () => {
      const email = uniqueEmail('race');
      for (let round = 0; round < 3; round += 1) {
        const body = registerBody({ email: round === 0 ? email : uniqueEmail('race') });
        const answers = await Promise.all([post(body), post({ ...body, email: body.email.toUpperCase() })]);
        expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409]);
        const loser = answers.find((res) => res.statusCode === 409);
        if (loser) expectError(loser, 409, 'conflict', 'email_taken');
        const rows = await t.app.db.select().from(users).where(eq(users.email, body.email));
        expect(rows).toHaveLength(1);
      }
    });
  });

  describe('validation', () => {
    it.each([
      ['an invalid email', { email: 'garage.example.dz' }, 'email', 'Adresse e-mail invalide'],
      ['a short password', { password: 'short' }, 'password', 'Le mot de passe doit contenir au moins 8 caractères'],
      [
        'a bad phone number',
        { phone_number: '555123456' },
        'phone_number',
        'Numéro de téléphone invalide (0 suivi de 8 à 10 chiffres)',
      ],
      ['an empty full name', { full_name: '   ' }, 'full_name', 'Le nom complet est requis'],
      ['a latitude out of range', { location: { latitude: 91, longitude: 3 } }, 'location', 'Localisation invalide'],
      [
        'privacy conditions refused',
        { privacy_conditions: false },
        'privacy_conditions',
        'Vous devez accepter les conditions de confidentialité',
      ],
    ])('answers 400 validation for %s', async (_label, override, field, message) => {
      const res = await post({ ...registerBody(), ...override });
      const error = expectError(res, 400, 'validation');
      expect(error.fields?.[field]).toBe(message);
      expect(error.message).toBe(message);
    });

    it('answers 400 with every missing field for an empty object, 400 for an array, 415 for plain text', async () => {
      const error = expectError(await post({}), 400, 'validation');
      expect(Object.keys(error.fields ?? {}).sort()).toEqual(
        ['email', 'full_name', 'location', 'password', 'phone_number'].sort(),
      );
      expectError(await post([1, 2]), 400, 'validation');
      expectError(await post('just a string'), 415, 'validation', 'unsupported_media_type');
    });
  });

  describe('rate limit', () => {
    it('allows 5 registrations per hour per address, then 429 with Retry-After', async () => {
      const ip = uniqueIp();
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect((await post(registerBody(), ip)).statusCode).toBe(201);
      }
      const body = registerBody();
      expectRateLimited(await post(body, ip), 3600);
      // Nothing was created by the refused attempt.
      expect(await t.app.db.select().from(users).where(eq(users.email, body.email))).toHaveLength(0);
      expect((await post(registerBody(), uniqueIp())).statusCode).toBe(201);
    });
  });
});
