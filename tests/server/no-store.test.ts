/**
 * Answers that carry tokens or partner data must never be kept by a browser or a proxy cache:
 * every /api/auth and /api/partner answer says Cache-Control: no-store, errors included.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, type TestPartner } from '../support/partners';
import { call, createTestApp, type TestApp } from '../support/test-app';
import { PROXY_ENV, refreshCookie, registerBody, uniqueIp } from './auth/helpers';

describe('Cache-Control: no-store', () => {
  let t: TestApp;
  let partner: TestPartner;
  beforeAll(async () => {
    t = await createTestApp({ env: PROXY_ENV });
    partner = await createPartner(t.app);
  });
  afterAll(() => t.close());

  const headers = () => ({ 'x-forwarded-for': uniqueIp(), 'idempotency-key': crypto.randomUUID() });

  const ANSWERS: Array<[string, () => ReturnType<typeof call>, number]> = [
    [
      'POST /api/auth/login',
      () => call(t.app, 'POST', '/api/auth/login', { body: { ...partner, remember_me: true }, headers: headers() }),
      200,
    ],
    [
      'POST /api/auth/login (wrong password)',
      () =>
        call(t.app, 'POST', '/api/auth/login', { body: { email: partner.email, password: 'x' }, headers: headers() }),
      401,
    ],
    [
      'POST /api/auth/register/partner',
      () => call(t.app, 'POST', '/api/auth/register/partner', { body: registerBody(), headers: headers() }),
      201,
    ],
    [
      'GET /api/partner/repair-types',
      () => call(t.app, 'GET', '/api/partner/repair-types', { token: partner.token }),
      200,
    ],
    ['GET /api/partner/statistics', () => call(t.app, 'GET', '/api/partner/statistics', { token: partner.token }), 200],
    ['GET /api/partner/repairs', () => call(t.app, 'GET', '/api/partner/repairs', { token: partner.token }), 200],
    [
      'GET /api/partner/vehicles/KODE000001',
      () => call(t.app, 'GET', '/api/partner/vehicles/KODE000001', { token: partner.token }),
      200,
    ],
    [
      'POST /api/partner/repairs',
      () =>
        call(t.app, 'POST', '/api/partner/repairs', {
          token: partner.token,
          headers: headers(),
          body: {
            kode_id: 'KODE000001',
            odometer: 150_000,
            repair_type_id: 'oil_change',
            consented: true,
            recorded_at: new Date().toISOString(),
          },
        }),
      201,
    ],
    [
      'PATCH /api/partner/profile',
      () => call(t.app, 'PATCH', '/api/partner/profile', { token: partner.token, body: { full_name: 'Garage Est' } }),
      200,
    ],
    ['GET /api/partner/statistics (no token)', () => call(t.app, 'GET', '/api/partner/statistics'), 401],
  ];

  it.each(ANSWERS)('%s', async (_name, send, status) => {
    const res = await send();
    expect(res.statusCode, res.body).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('POST /api/auth/refresh', async () => {
    const signedIn = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: partner.email, password: partner.password },
      headers: headers(),
    });
    const res = await call(t.app, 'POST', '/api/auth/refresh', {
      cookies: { refresh_token: refreshCookie(signedIn).value },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
