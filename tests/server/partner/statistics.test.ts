import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure, ApiSuccess, Statistics } from '../../../contract';
import { partnerStatistics } from '../../../server/services/repairs';
import { startOfMonthIn } from '../../../server/services/time-zone';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import { createPartner, recordRepair, type TestPartner } from '../../support/partners';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

describe('startOfMonthIn', () => {
  it('gives midnight on the 1st in Algiers (UTC+1 all year) as an instant', () => {
    const zone = 'Africa/Algiers';
    expect(startOfMonthIn(zone, new Date('2026-03-15T12:00:00Z')).toISOString()).toBe('2026-02-28T23:00:00.000Z');
    // 23:30 UTC on 31 January is already 1 February in Algiers.
    expect(startOfMonthIn(zone, new Date('2026-01-31T23:30:00Z')).toISOString()).toBe('2026-01-31T23:00:00.000Z');
    expect(startOfMonthIn(zone, new Date('2026-01-31T22:59:00Z')).toISOString()).toBe('2025-12-31T23:00:00.000Z');
    expect(startOfMonthIn(zone, new Date('2026-07-01T00:00:00Z')).toISOString()).toBe('2026-06-30T23:00:00.000Z');
  });

  it('follows a zone with daylight saving time', () => {
    // Paris is UTC+2 on 1 July and UTC+1 on 1 March.
    expect(startOfMonthIn('Europe/Paris', new Date('2026-07-10T00:00:00Z')).toISOString()).toBe(
      '2026-06-30T22:00:00.000Z',
    );
    expect(startOfMonthIn('Europe/Paris', new Date('2026-03-10T00:00:00Z')).toISOString()).toBe(
      '2026-02-28T23:00:00.000Z',
    );
  });
});

describe('GET /api/partner/statistics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const statistics = async (partner: TestPartner) => {
    const res = await call(t.app, 'GET', '/api/partner/statistics', { token: partner.token });
    expect(res.statusCode).toBe(200);
    const body = res.json<ApiSuccess<Statistics>>();
    expect(body).toMatchObject({ code: 200, status: 'success' });
    return body.data;
  };

  const record = (partner: TestPartner, kodeId: string, odometer: number, recordedAt: Date) =>
    recordRepair(t.app, partner, { kodeId, odometer, recordedAt, repairTypeId: 'oil_change' });

  it('is all zeros for a partner without repairs', async () => {
    const p = await createPartner(t.app);
    expect(await statistics(p)).toEqual({
      repairs_total: 0,
      repairs_this_month: 0,
      vehicles_total: 0,
      last_repair_at: null,
      implausible_total: 0,
    });
  });

  it('counts repairs, this month’s in Algiers time, distinct vehicles and the last recorded_at', async () => {
    // On the 10th of this month in Algiers, so every reading below is within the recorded_at window
    // (RECORDED_AT_MAX_AGE_MS) whatever day the suite runs on.
    const pinned = startOfMonthIn('Africa/Algiers', t.clock.now()).getTime() + 9 * DAY + 12 * 60 * MINUTE;
    t.clock.advance(pinned - t.clock.now().getTime());
    try {
      const p = await createPartner(t.app);
      const now = t.clock.now();
      const monthStart = startOfMonthIn('Africa/Algiers', now).getTime();
      // Just inside this month in Algiers (the previous evening in UTC), and just before it.
      await record(p, 'KODE000001', 10_000, new Date(monthStart + MINUTE));
      await record(p, 'KODE000002', 20_000, new Date(monthStart - MINUTE));
      await record(p, 'KODE000001', 10_500, new Date(monthStart - 15 * DAY));
      const latest = new Date(now.getTime() - MINUTE);
      await record(p, 'KODE000003', 30_000, latest);
      expect(await statistics(p)).toEqual({
        repairs_total: 4,
        repairs_this_month: 2,
        vehicles_total: 3,
        last_repair_at: latest.toISOString(),
        // KODE000001's 10,500 km, recorded before its 10,000 km and received late after it: it bears the dip.
        implausible_total: 1,
      });
    } finally {
      t.clock.reset();
    }
  });

  it('starts a new count when the next month begins in Algiers', async () => {
    const p = await createPartner(t.app);
    const now = t.clock.now();
    await record(p, 'KODE000001', 11_000, new Date(now.getTime() - MINUTE));
    expect((await statistics(p)).repairs_this_month).toBe(1);
    // Access tokens last 15 minutes, so the month change is checked on the query with its own "now".
    const nextMonth = startOfMonthIn(
      'Africa/Algiers',
      new Date(startOfMonthIn('Africa/Algiers', now).getTime() + 32 * DAY),
    );
    const justBefore = await partnerStatistics(t.app.db, p.id, new Date(nextMonth.getTime() - MINUTE));
    const justAfter = await partnerStatistics(t.app.db, p.id, new Date(nextMonth.getTime() + MINUTE));
    expect(justBefore).toMatchObject({ repairs_total: 1, repairs_this_month: 1 });
    expect(justAfter).toMatchObject({ repairs_total: 1, repairs_this_month: 0 });
  });

  it('answers 401 without a token', async () => {
    const res = await call(t.app, 'GET', '/api/partner/statistics');
    expect(res.statusCode).toBe(401);
    expect(res.json<ApiFailure>()).toMatchObject({ code: 401, status: 'error', error: { type: 'auth' } });
  });
});
