import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure, ApiSuccess, Vehicle } from '../../../contract';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import { createPartner, recordRepair, type TestPartner } from '../../support/partners';

const DAY = 24 * 60 * 60 * 1000;

describe('GET /api/partner/vehicles/:kode_id', () => {
  let t: TestApp;
  let a: TestPartner;
  let b: TestPartner;
  beforeAll(async () => {
    t = await createTestApp();
    a = await createPartner(t.app);
    b = await createPartner(t.app);
  });
  afterAll(() => t.close());

  const lookup = (kodeId: string, partner: TestPartner | null = a, headers: Record<string, string> = {}) =>
    call(t.app, 'GET', `/api/partner/vehicles/${kodeId}`, { token: partner?.token, headers });

  const record = (partner: TestPartner, kodeId: string, odometer: number, recordedAt: Date) =>
    recordRepair(t.app, partner, { kodeId, odometer, recordedAt, repairTypeId: 'mileage_reading' });

  it('answers the vehicle with no reading yet', async () => {
    const res = await lookup('KODE000001');
    expect(res.statusCode).toBe(200);
    expect(res.json<ApiSuccess<Vehicle>>()).toEqual({
      code: 200,
      status: 'success',
      data: {
        kode_id: 'KODE000001',
        vin: 'VF1S1CD16RB267735',
        brand: 'Renault',
        name: 'Symbol',
        year: 2024,
        last_odometer: null,
        last_odometer_at: null,
      },
    });
  });

  it('is case-insensitive', async () => {
    const res = await lookup('kode000003');
    expect(res.statusCode).toBe(200);
    expect(res.json<ApiSuccess<Vehicle>>().data).toMatchObject({
      kode_id: 'KODE000003',
      brand: 'Dacia',
      name: 'Logan',
    });
  });

  it('gives the last reading by recorded_at across every partner', async () => {
    const now = t.clock.now().getTime();
    await record(a, 'KODE000002', 90_000, new Date(now - 3 * DAY));
    const latest = new Date(now - DAY);
    await record(b, 'KODE000002', 92_000, latest);
    // Synced last but recorded earliest: not the last known reading.
    await record(a, 'KODE000002', 89_000, new Date(now - 5 * DAY));
    const res = await lookup('KODE000002');
    expect(res.json<ApiSuccess<Vehicle>>().data).toMatchObject({
      kode_id: 'KODE000002',
      last_odometer: 92_000,
      last_odometer_at: latest.toISOString(),
    });
    // Only the value and its date: never which garage recorded it.
    expect(Object.keys(res.json<ApiSuccess<Vehicle>>().data).sort()).toEqual(
      ['brand', 'kode_id', 'last_odometer', 'last_odometer_at', 'name', 'vin', 'year'].sort(),
    );
  });

  it.each(['KODE00001', 'KODE0000011', 'KODE-00001', 'KODE%2000001', 'KODÉ000001', '%20%20%20%20%20%20%20%20%20%20'])(
    'answers 400 kode_id_invalid for %s',
    async (kodeId) => {
      const res = await lookup(kodeId);
      expect(res.statusCode).toBe(400);
      const body = res.json<ApiFailure>();
      expect(body).toMatchObject({
        code: 400,
        status: 'error',
        error: { type: 'validation', message: 'Veuillez saisir un KODE ID valide' },
      });
      expect(body.error.fields).toEqual({ kode_id: 'Veuillez saisir un KODE ID valide' });
    },
  );

  it('words kode_id_invalid in English when asked', async () => {
    const res = await lookup('short', a, { 'accept-language': 'en-GB,en;q=0.9' });
    expect(res.json<ApiFailure>().error.message).toBe('Please enter a valid KODE ID');
  });

  it('answers 404 vehicle_not_found for an unknown vehicle', async () => {
    const res = await lookup('ZZZZZZZZZZ');
    expect(res.statusCode).toBe(404);
    expect(res.json<ApiFailure>()).toEqual({
      code: 404,
      status: 'error',
      error: { type: 'not_found', reason: 'vehicle_not_found', message: 'Aucun véhicule ne correspond à ce KODE ID' },
    });
  });

  it('answers 404 in the envelope without an id', async () => {
    const res = await lookup('');
    expect(res.statusCode).toBe(404);
    expect(res.json<ApiFailure>()).toMatchObject({ code: 404, status: 'error', error: { type: 'not_found' } });
  });

  it('answers 401 without a token', async () => {
    const res = await lookup('KODE000001', null);
    expect(res.statusCode).toBe(401);
    expect(res.json<ApiFailure>()).toMatchObject({ code: 401, status: 'error', error: { type: 'auth' } });
  });
});
