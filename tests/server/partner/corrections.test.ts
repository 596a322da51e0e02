/** Corrections, never overwrites (docs/API.md#corrections). */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CORRECTION_WINDOW_MS,
  type ApiFailure,
  type ApiSuccess,
  type RepairRecord,
  type Statistics,
} from '../../../contract';
import { repairs } from '../../../server/db/schema';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import { createPartner, type TestPartner } from '../../support/partners';

const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ago = (ms: number) => new Date(t.clock.now().getTime() - ms).toISOString();

function post(partner: TestPartner, body: Record<string, unknown>, key: string = crypto.randomUUID()) {
  return call(t.app, 'POST', '/api/partner/repairs', {
    token: partner.token,
    headers: { 'idempotency-key': key },
    body: { repair_type_id: 'oil_change', consented: true, ...body },
  });
}

async function record(partner: TestPartner, kodeId: string, odometer: number, recordedAt: string) {
  const res = await post(partner, { kode_id: kodeId, odometer, recorded_at: recordedAt });
  expect(res.statusCode).toBe(201);
  return res.json<ApiSuccess<RepairRecord>>().data;
}

const history = async (partner: TestPartner) =>
  (await call(t.app, 'GET', '/api/partner/repairs?limit=500', { token: partner.token })).json<
    ApiSuccess<RepairRecord[]>
  >().data;
const byId = async (partner: TestPartner, id: string) => (await history(partner)).find((repair) => repair.id === id);

function expectRefused(res: Awaited<ReturnType<typeof call>>, code: number, reason: string) {
  expect(res.statusCode).toBe(code);
  expect(res.json<ApiFailure>().error).toMatchObject({ reason, message: expect.any(String) });
}

describe('POST /api/partner/repairs with corrects', () => {
  it('keeps the original, marks it superseded, and takes it out of the rules', async () => {
    const p = await createPartner(t.app);
    await record(p, 'KODE000001', 80_000, ago(3 * DAY));
    const typo = await record(p, 'KODE000001', 8_000, ago(2 * DAY));
    const after = await record(p, 'KODE000001', 80_400, ago(DAY));
    expect(typo.verdict).toBe('implausible');
    const res = await post(p, {
      kode_id: 'KODE000001',
      odometer: 80_100,
      recorded_at: ago(2 * DAY),
      corrects: typo.id,
      correction_reason: 'typo',
    });
    expect(res.statusCode).toBe(201);
    const correction = res.json<ApiSuccess<RepairRecord>>().data;
    expect(correction).toMatchObject({ corrects: typo.id, correction_reason: 'typo', superseded_by: null });
    expect(correction).toMatchObject({ verdict: 'plausible', reasons: [] });
    expect(await byId(p, typo.id)).toMatchObject({
      odometer: 8_000,
      superseded_by: correction.id,
      verdict: 'no_verdict',
      odometer_anomaly: false,
    });
    expect((await byId(p, after.id))?.verdict).toBe('plausible');
    const stats = (await call(t.app, 'GET', '/api/partner/statistics', { token: p.token })).json<
      ApiSuccess<Statistics>
    >();
    expect(stats.data).toMatchObject({ repairs_total: 4, implausible_total: 0 });
  });

  it('starts a new series from an odometer_replaced correction', async () => {
    const p = await createPartner(t.app);
    await record(p, 'KODE000002', 250_000, ago(3 * DAY));
    const replaced = await record(p, 'KODE000002', 10, ago(2 * DAY));
    const later = await record(p, 'KODE000002', 300, ago(DAY));
    expect(later.verdict).toBe('plausible');
    expect(replaced.verdict).toBe('implausible');
    const correction = (
      await post(p, {
        kode_id: 'KODE000002',
        odometer: 12,
        recorded_at: ago(2 * DAY),
        corrects: replaced.id,
        correction_reason: 'odometer_replaced',
      })
    ).json<ApiSuccess<RepairRecord>>().data;
    expect(correction).toMatchObject({ verdict: 'no_verdict', correction_reason: 'odometer_replaced' });
    expect((await byId(p, later.id))?.verdict).toBe('plausible');
  });

  it('re-judges the original’s vehicle after a wrong_vehicle correction', async () => {
    const p = await createPartner(t.app);
    await record(p, 'KODE000003', 60_000, ago(3 * DAY));
    const wrong = await record(p, 'KODE000003', 20_000, ago(2 * DAY));
    const next = await record(p, 'KODE000003', 60_500, ago(DAY));
    expect(next.verdict).toBe('implausible');
    const res = await post(p, {
      kode_id: 'T4GUH2M9UP',
      odometer: 20_000,
      recorded_at: ago(2 * DAY),
      corrects: wrong.id,
      correction_reason: 'wrong_vehicle',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<ApiSuccess<RepairRecord>>().data.vehicle.kode_id).toBe('T4GUH2M9UP');
    expect(await byId(p, next.id)).toMatchObject({ verdict: 'plausible', reasons: [] });
  });

  it('answers a replay of a correction with the stored one, even when two arrive at once', async () => {
    const p = await createPartner(t.app);
    const original = await record(p, 'TEQUFH2RP7', 1_000, ago(DAY));
    const key = crypto.randomUUID();
    const body = {
      kode_id: 'TEQUFH2RP7',
      odometer: 1_600,
      recorded_at: ago(DAY),
      corrects: original.id,
      correction_reason: 'miles_as_km',
    };
    const answers = await Promise.all([post(p, body, key), post(p, body, key)]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 201]);
    const [first, second] = answers.map((res) => res.json<ApiSuccess<RepairRecord>>().data);
    expect(second?.id).toBe(first?.id);
    expect((await post(p, body, key)).statusCode).toBe(200);
    expect(await t.app.db.select().from(repairs).where(eq(repairs.corrects, original.id))).toHaveLength(1);
  });

  describe('refusals', () => {
    let p: TestPartner;
    let original: RepairRecord;
    const correct = (partner: TestPartner, corrects: unknown, reason: unknown = 'typo') =>
      post(partner, {
        kode_id: 'B8RXR7BP4R',
        odometer: 70_000,
        recorded_at: ago(MINUTE),
        corrects,
        correction_reason: reason,
      });
    beforeAll(async () => {
      p = await createPartner(t.app);
      original = await record(p, 'B8RXR7BP4R', 7_000, ago(2 * MINUTE));
    });

    it('refuses another partner’s repair and an unknown id alike: 404 repair_not_found', async () => {
      const other = await createPartner(t.app);
      expectRefused(await correct(other, original.id), 404, 'repair_not_found');
      expectRefused(await correct(p, crypto.randomUUID()), 404, 'repair_not_found');
      expect((await byId(p, original.id))?.superseded_by).toBeNull();
    });

    it('refuses a correction without its reason, or with an unknown one: 400 correction_invalid', async () => {
      const missing = await post(p, {
        kode_id: 'B8RXR7BP4R',
        odometer: 70_000,
        recorded_at: ago(MINUTE),
        corrects: original.id,
      });
      expectRefused(missing, 400, 'correction_invalid');
      expectRefused(await correct(p, original.id, 'bored'), 400, 'correction_invalid');
      expectRefused(await correct(p, 'not-a-uuid'), 400, 'correction_invalid');
    });

    it('refuses a second correction of one repair: 409 already_corrected', async () => {
      const first = await correct(p, original.id);
      expect(first.statusCode).toBe(201);
      expectRefused(await correct(p, original.id), 409, 'already_corrected');
    });

    it('refuses two different corrections of one repair at once but one', async () => {
      const repair = await record(p, 'MP97RDXATY', 5_000, ago(MINUTE));
      const both = await Promise.all([
        post(p, {
          kode_id: 'MP97RDXATY',
          odometer: 5_001,
          recorded_at: ago(MINUTE),
          corrects: repair.id,
          correction_reason: 'typo',
        }),
        post(p, {
          kode_id: 'MP97RDXATY',
          odometer: 5_002,
          recorded_at: ago(MINUTE),
          corrects: repair.id,
          correction_reason: 'typo',
        }),
      ]);
      expect(both.map((res) => res.statusCode).sort()).toEqual([201, 409]);
    });

    it(`accepts a correction until ${CORRECTION_WINDOW_MS / DAY} days after the original was stored, then 422 correction_window_closed`, async () => {
      const inside = await record(p, '6TANY3MFTJ', 9_000, ago(MINUTE));
      const outside = await record(p, '7Y5ELYNYL3', 9_000, ago(MINUTE));
      const storedAgo = (ms: number) => new Date(t.clock.now().getTime() - ms);
      await t.app.db
        .update(repairs)
        .set({ created_at: storedAgo(CORRECTION_WINDOW_MS - MINUTE) })
        .where(eq(repairs.id, inside.id));
      await t.app.db
        .update(repairs)
        .set({ created_at: storedAgo(CORRECTION_WINDOW_MS + MINUTE) })
        .where(eq(repairs.id, outside.id));
      const fix = (repair: RepairRecord) =>
        post(p, {
          kode_id: repair.vehicle.kode_id,
          odometer: 9_100,
          recorded_at: ago(MINUTE),
          corrects: repair.id,
          correction_reason: 'typo',
        });
      expect((await fix(inside)).statusCode).toBe(201);
      expectRefused(await fix(outside), 422, 'correction_window_closed');
      expect((await byId(p, outside.id))?.superseded_by).toBeNull();
    });
  });
});
