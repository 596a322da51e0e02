import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../../server/db/schema';
import { createPartner, type TestPartner } from '../../support/partners';
import { call, createTestApp, TEST_ORIGIN, type TestApp } from '../../support/test-app';
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

const URL = '/api/auth/logout/partner';

describe('GET and POST /api/auth/logout/partner', () => {
  let t: TestApp;
  let partner: TestPartner;
  beforeAll(async () => {
    t = await createTestApp({ env: PROXY_ENV });
    partner = await createPartner(t.app);
  });
  afterAll(() => t.close());

  /** A fresh sign-in, by default of a new partner. */
  const signIn = async (who?: TestPartner) => signInTokens(t.app, who ?? (await createPartner(t.app)));

  const logout = (method: 'GET' | 'POST', token?: string, headers: Record<string, string> = {}) =>
    call(t.app, method, URL, { headers, ...(token === undefined ? {} : { cookies: { refresh_token: token } }) });

  it.each(['GET', 'POST'] as const)('%s answers 200, clears the cookie and revokes the session', async (method) => {
    const session = await signIn();
    expect(await accessWorks(t.app, session.access)).toBe(true);
    const res = await logout(method, session.refresh);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, status: 'success', data: null });
    expectClearedCookie(res);
    expect((await sessionRow(t.app, session.refresh))?.revoked_at).toBeInstanceOf(Date);
    expect(await accessWorks(t.app, session.access)).toBe(false);
    expectError(await refresh(t.app, session.refresh), 401, 'auth', 'session_revoked');
  });

  it('revokes every row of the family, also when an older token of it is presented', async () => {
    const session = await signIn();
    const rotated = await refresh(t.app, session.refresh);
    const current = refreshCookie(rotated).value;
    const family = (await sessionRow(t.app, current))?.family_id ?? '';
    expect((await logout('POST', session.refresh)).statusCode).toBe(200);
    const rows = await t.app.db.select().from(sessions).where(eq(sessions.family_id, family));
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.revoked_at instanceof Date)).toBe(true);
    expectError(await refresh(t.app, current), 401, 'auth', 'session_revoked');
  });

  it('leaves the partner signed in on other devices', async () => {
    const tablet = await signIn(partner);
    const phone = await signIn(partner);
    expect((await logout('GET', tablet.refresh)).statusCode).toBe(200);
    expect(await accessWorks(t.app, tablet.access)).toBe(false);
    expect(await accessWorks(t.app, phone.access)).toBe(true);
    expect((await refresh(t.app, phone.refresh)).statusCode).toBe(200);
  });

  it.each([
    ['no cookie', undefined],
    ['an unknown token', 'B'.repeat(43)],
    ['a malformed token', '%%%'],
  ])('answers 200 and clears the cookie with %s', async (_label, token) => {
    const res = await logout('POST', token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'success' });
    expectClearedCookie(res);
  });

  it('answers 200 for a session already signed out', async () => {
    const session = await signIn();
    expect((await logout('POST', session.refresh)).statusCode).toBe(200);
    expect((await logout('POST', session.refresh)).statusCode).toBe(200);
  });

  it('ignores an empty JSON body sent with Content-Type: application/json', async () => {
    const session = await signIn();
    const res = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { 'x-origin': TEST_ORIGIN, 'content-type': 'application/json' },
      cookies: { refresh_token: session.refresh },
    });
    expect(res.statusCode).toBe(200);
    expect(await accessWorks(t.app, session.access)).toBe(false);
  });

  describe('X-Origin', () => {
    it.each(['GET', 'POST'] as const)('%s answers 403 without X-Origin and keeps the session', async (method) => {
      const session = await signIn();
      const res = await t.app.inject({ method, url: URL, cookies: { refresh_token: session.refresh } });
      expectError(res, 403, 'forbidden', 'forbidden_origin');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(await accessWorks(t.app, session.access)).toBe(true);
    });

    it('answers 403 for a foreign origin, worded after Accept-Language', async () => {
      const session = await signIn();
      const res = await logout('GET', session.refresh, { 'x-origin': 'https://evil.example', 'accept-language': 'en' });
      expect(expectError(res, 403, 'forbidden', 'forbidden_origin').message).toBe('Origin not allowed');
      expect(await accessWorks(t.app, session.access)).toBe(true);
    });
  });
});
