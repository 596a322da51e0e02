import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, type TestPartner } from '../../support/partners';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import { deviceCookie, expectError, refreshCookie, uniqueIp } from './helpers';

const APP_ORIGIN = 'https://portail.garage.example.dz';
const OTHER_ORIGIN = 'https://pwa.garage.example.dz';

/** Behind HTTPS the refresh and device cookies are Secure; ALLOWED_ORIGINS widens the X-Origin check. */
describe('auth behind HTTPS with another allowed origin', () => {
  let t: TestApp;
  let partner: TestPartner;
  beforeAll(async () => {
    t = await createTestApp({ env: { APP_URL: APP_ORIGIN, ALLOWED_ORIGINS: OTHER_ORIGIN, TRUST_PROXY: '1' } });
    partner = await createPartner(t.app);
  });
  afterAll(() => t.close());

  const signIn = async (rememberMe: boolean) => {
    const res = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: partner.email, password: partner.password, remember_me: rememberMe },
      headers: { 'x-origin': APP_ORIGIN, 'x-forwarded-for': uniqueIp() },
    });
    expect(res.statusCode).toBe(200);
    expect(deviceCookie(res)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    return refreshCookie(res);
  };

  it('marks the refresh cookie Secure, with and without remember_me', async () => {
    for (const rememberMe of [false, true]) {
      const cookie = await signIn(rememberMe);
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    }
    // Clearing it must match the attributes too, or the browser keeps the Secure one.
    const logout = await call(t.app, 'POST', '/api/auth/logout/partner', { headers: { 'x-origin': APP_ORIGIN } });
    expect(refreshCookie(logout)).toMatchObject({ value: '', secure: true, path: '/api/auth' });
  });

  it('accepts X-Origin of the app and of ALLOWED_ORIGINS, refuses the plain-HTTP default', async () => {
    for (const origin of [APP_ORIGIN, OTHER_ORIGIN]) {
      const cookie = await signIn(false);
      const res = await call(t.app, 'POST', '/api/auth/refresh', {
        headers: { 'x-origin': origin },
        cookies: { refresh_token: cookie.value },
      });
      expect(res.statusCode).toBe(200);
      expect(refreshCookie(res).secure).toBe(true);
    }
    const cookie = await signIn(false);
    const refused = await call(t.app, 'POST', '/api/auth/refresh', { cookies: { refresh_token: cookie.value } });
    expectError(refused, 403, 'forbidden', 'forbidden_origin');
  });
});
