import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../support/test-app';
import { createPartner, type TestPartner } from '../support/partners';

describe('GET /api/partner/repair-types', () => {
  let t: TestApp;
  let partner: TestPartner;
  beforeAll(async () => {
    t = await createTestApp();
    partner = await createPartner(t.app);
  });
  afterAll(() => t.close());

  it('lists the twelve seeded types with their three names', async () => {
    const res = await call(t.app, 'GET', '/api/partner/repair-types', { token: partner.token });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ code: number; status: string; data: Array<Record<string, string>> }>();
    expect(body.code).toBe(200);
    expect(body.status).toBe('success');
    expect(body.data).toHaveLength(12);
    expect(body.data[0]).toEqual({ id: 'oil_change', name: 'Vidange', name_ar: 'تغيير الزيت', name_en: 'Oil change' });
  });

  it('answers 401 in the envelope without a token', async () => {
    const res = await call(t.app, 'GET', '/api/partner/repair-types');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 401, status: 'error', error: { type: 'auth' } });
  });

  it('answers 401 for a forged token', async () => {
    const res = await call(t.app, 'GET', '/api/partner/repair-types', { token: 'v4.local.forged' });
    expect(res.statusCode).toBe(401);
  });
});
