import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSuccess, RepairRecord, Statistics } from '../../../contract';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import { createPartner, type TestPartner } from '../../support/partners';

/** Each partner sees only their own repairs and statistics (docs/API.md#data-isolation). */
describe('partner isolation', () => {
  let t: TestApp;
  let a: TestPartner;
  let b: TestPartner;
  const keyOfA = crypto.randomUUID();
  let repairOfA: RepairRecord;

  const body = (kodeId: string, odometer: number) => ({
    kode_id: kodeId,
    odometer,
    repair_type_id: 'oil_change',
    consented: true,
    recorded_at: new Date(t.clock.now().getTime() - 60_000).toISOString(),
  });
  const post = (partner: TestPartner, payload: unknown, key = crypto.randomUUID()) =>
    call(t.app, 'POST', '/api/partner/repairs', {
      token: partner.token,
      body: payload,
      headers: { 'idempotency-key': key },
    });
  const list = async (partner: TestPartner) =>
    (await call(t.app, 'GET', '/api/partner/repairs', { token: partner.token })).json<ApiSuccess<RepairRecord[]>>()
      .data;
  const statistics = async (partner: TestPartner) =>
    (await call(t.app, 'GET', '/api/partner/statistics', { token: partner.token })).json<ApiSuccess<Statistics>>().data;

  let sharedBody: ReturnType<typeof body>;
  beforeAll(async () => {
    t = await createTestApp();
    a = await createPartner(t.app);
    b = await createPartner(t.app);
    sharedBody = body('KODE000001', 50_000);
    const first = await post(a, sharedBody, keyOfA);
    expect(first.statusCode).toBe(201);
    repairOfA = first.json<ApiSuccess<RepairRecord>>().data;
    expect((await post(a, body('KODE000002', 60_000))).statusCode).toBe(201);
    expect((await post(b, body('KODE000003', 70_000))).statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it('lists only the caller’s repairs', async () => {
    const ofA = await list(a);
    const ofB = await list(b);
    expect(ofA.map((r) => r.vehicle.kode_id).sort()).toEqual(['KODE000001', 'KODE000002']);
    expect(ofB.map((r) => r.vehicle.kode_id)).toEqual(['KODE000003']);
    expect(ofA.some((r) => ofB.some((other) => other.id === r.id))).toBe(false);
  });

  it('counts only the caller’s repairs in the statistics', async () => {
    expect(await statistics(a)).toMatchObject({ repairs_total: 2, vehicles_total: 2 });
    expect(await statistics(b)).toMatchObject({ repairs_total: 1, vehicles_total: 1 });
    const c = await createPartner(t.app);
    expect(await statistics(c)).toEqual({
      repairs_total: 0,
      repairs_this_month: 0,
      vehicles_total: 0,
      last_repair_at: null,
      implausible_total: 0,
    });
    expect(await list(c)).toEqual([]);
  });

  it('lets B reuse A’s Idempotency-Key: B gets a separate repair, A’s stays A’s', async () => {
    const sameKey = await post(b, sharedBody, keyOfA);
    expect(sameKey.statusCode).toBe(201);
    const repairOfB = sameKey.json<ApiSuccess<RepairRecord>>().data;
    expect(repairOfB.id).not.toBe(repairOfA.id);
    // A different body under A's key is B's own business too.
    const other = await post(b, body('KODE000002', 61_000), crypto.randomUUID());
    expect(other.statusCode).toBe(201);
    const replayOfA = await post(a, sharedBody, keyOfA);
    expect(replayOfA.statusCode).toBe(200);
    // The verdict is today's: B's identical reading of the same moment may come first in recorded order.
    expect(replayOfA.json<ApiSuccess<RepairRecord>>().data).toEqual({
      ...repairOfA,
      verdict: expect.any(String),
      reasons: expect.any(Array),
    });
    const replayOfB = await post(b, sharedBody, keyOfA);
    expect(replayOfB.statusCode).toBe(200);
    expect(replayOfB.json<ApiSuccess<RepairRecord>>().data.id).toBe(repairOfB.id);
    expect((await list(a)).map((r) => r.id)).toContain(repairOfA.id);
    expect((await list(a)).map((r) => r.id)).not.toContain(repairOfB.id);
    expect((await list(b)).map((r) => r.id)).toContain(repairOfB.id);
  });

  it('never answers a replay with another partner’s repair, even for the same key and body at once', async () => {
    const key = crypto.randomUUID();
    const payload = body('V3SMJ5P6FX', 1_000);
    const [fromA, fromB] = await Promise.all([post(a, payload, key), post(b, payload, key)]);
    expect(fromA.statusCode).toBe(201);
    expect(fromB.statusCode).toBe(201);
    const idA = fromA.json<ApiSuccess<RepairRecord>>().data.id;
    const idB = fromB.json<ApiSuccess<RepairRecord>>().data.id;
    expect(idA).not.toBe(idB);
    expect((await list(a)).map((r) => r.id)).not.toContain(idB);
    expect((await list(b)).map((r) => r.id)).not.toContain(idA);
  });
});
