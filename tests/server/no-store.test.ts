/**
 * Answers that carry tokens or partner data must never be kept by a browser or a proxy cache:
 * every /api/auth and /api/partner answer says Cache-Control: no-store, errors included.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useAppWithPartner } from '../support/partners';
import { call } from '../support/test-app';
import { PROXY_ENV, refreshCookie, registerBody, uniqueIp } from './auth/helpers';

describe('Cache-Control: no-store', () => {
  const fixture = useAppWithPartner({ env: PROXY_ENV });

  const headers = () => ({ 'x-forwarded-for': uniqueIp(), 'idempotency-key': crypto.randomUUID() });

  interface Answer {
    method: 'GET' | 'POST' | 'PATCH';
    url: string;
    /** The body, made when the test runs (the partner exists by then). */
    body?: () => unknown;
    /** Send the partner's access token. */
    signedIn?: boolean;
    status: number;
  }

  const repair = () => ({
    kode_id: 'KODE000001',
    odometer: 150_000,
    repair_type_id: 'oil_change',
    consented: true,
    recorded_at: new Date().toISOString(),
  });

  const ANSWERS: Answer[] = [
    { method: 'POST', url: '/api/auth/login', body: () => ({ ...fixture.partner, remember_me: true }), status: 200 },
    {
      method: 'POST',
      url: '/api/auth/login',
      body: () => ({ email: fixture.partner.email, password: 'x' }),
      status: 401,
    },
    { method: 'POST', url: '/api/auth/register/partner', body: () => registerBody(), status: 201 },
    { method: 'GET', url: '/api/partner/repair-types', signedIn: true, status: 200 },
    { method: 'GET', url: '/api/partner/statistics', signedIn: true, status: 200 },
    { method: 'GET', url: '/api/partner/repairs', signedIn: true, status: 200 },
    { method: 'GET', url: '/api/partner/vehicles/KODE000001', signedIn: true, status: 200 },
    { method: 'POST', url: '/api/partner/repairs', body: repair, signedIn: true, status: 201 },
    {
      method: 'PATCH',
      url: '/api/partner/profile',
      body: () => ({ full_name: 'Garage Est' }),
      signedIn: true,
      status: 200,
    },
    { method: 'GET', url: '/api/partner/statistics', status: 401 },
  ];

  it.each(ANSWERS)('$method $url answering $status', async ({ method, url, body, signedIn, status }) => {
    const res = await call(fixture.t.app, method, url, {
      body: body?.(),
      headers: headers(),
      ...(signedIn ? { token: fixture.partner.token } : {}),
    });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('POST /api/auth/refresh', async () => {
    const signedIn = await call(fixture.t.app, 'POST', '/api/auth/login', {
      body: { email: fixture.partner.email, password: fixture.partner.password },
      headers: headers(),
    });
    const res = await call(fixture.t.app, 'POST', '/api/auth/refresh', {
      cookies: { refresh_token: refreshCookie(signedIn).value },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
