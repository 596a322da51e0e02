/**
 * Backdated and late readings (docs/PRODUCT.md#late-readings): a reading that
 * reaches the server more than LATE_REPORT_MS after its recorded_at is judged against its neighbours like
 * any other, and bears the conflict with a reading that reached the server before it; an honest reading
 * received first keeps its verdict. And no reading is accepted older than a tablet can hold it
 * (RECORDED_AT_MAX_AGE_MS).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  judgeReadings,
  RECORDED_AT_MAX_AGE_MS,
  type ApiFailure,
  type ApiSuccess,
  type RepairRecord,
  type VehicleReading,
} from '../../../contract';
import { MIGRATIONS_FOLDER } from '../../../server/db/client';
import { repairs } from '../../../server/db/schema';
import { judgeUnjudgedVehicles, toReading } from '../../../server/services/repairs/judge';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import { createPartner, type TestPartner } from '../../support/partners';

const DAY = 24 * 60 * 60 * 1000;
/** The furthest back the server accepts a reading, less a day: the reproduction's "now − 89 days" at 90. */
const BACKDATED = RECORDED_AT_MAX_AGE_MS - DAY;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ago = (ms: number) => new Date(t.clock.now().getTime() - ms).toISOString();

/**
 * Runs `fn` with the app's clock `ms` in the past, so what it stores was received then. The partner's
 * access token and session are checked against the same clock, so they stay valid.
 */
async function back<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  t.clock.advance(-ms);
  try {
    return await fn();
  } finally {
    t.clock.reset();
  }
}

function post(partner: TestPartner, kodeId: string, odometer: number, recordedAt: string, extra = {}) {
  return call(t.app, 'POST', '/api/partner/repairs', {
    token: partner.token,
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: {
      kode_id: kodeId,
      odometer,
      repair_type_id: 'oil_change',
      consented: true,
      recorded_at: recordedAt,
      ...extra,
    },
  });
}

async function record(partner: TestPartner, kodeId: string, odometer: number, recordedAt: string, extra = {}) {
  const res = await post(partner, kodeId, odometer, recordedAt, extra);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ApiSuccess<RepairRecord>>().data;
}

/** Verdict and reasons of a partner's repair as its history shows them now. */
async function judged(partner: TestPartner, id: string) {
  const res = await call(t.app, 'GET', '/api/partner/repairs?limit=500', { token: partner.token });
  const repair = res.json<ApiSuccess<RepairRecord[]>>().data.find((row) => row.id === id);
  return repair && { verdict: repair.verdict, reasons: repair.reasons };
}

async function timeline(partner: TestPartner, kodeId: string) {
  const res = await call(t.app, 'GET', `/api/partner/vehicles/${kodeId}/readings`, { token: partner.token });
  return res.json<ApiSuccess<VehicleReading[]>>().data.map(({ odometer, verdict, reasons }) => ({
    odometer,
    verdict,
    reasons,
  }));
}

/** The stored verdicts equal the rules applied to the stored readings. */
async function expectStoredAsRuled(kodeId: string) {
  const rows = await t.app.db.select().from(repairs).where(eq(repairs.kode_id, kodeId));
  const ruled = judgeReadings(rows.map(toReading));
  for (const row of rows) expect({ verdict: row.verdict, reasons: row.reasons }).toEqual(ruled.get(row.id));
}

describe('the reproduction (issue "The server\'s edges", item 2)', () => {
  it('judges a backdated higher reading against the honest one received first, and leaves that one alone', async () => {
    const a = await createPartner(t.app);
    const b = await createPartner(t.app);
    const honest = await record(b, 'RVJQ2T8MPN', 50_000, ago(DAY));
    const backdated = await record(a, 'RVJQ2T8MPN', 100_000, ago(BACKDATED));
    // Sent on time it would have been too_fast after B's 50,000: late, it still is, and late besides.
    expect(backdated).toMatchObject({ verdict: 'implausible', reasons: ['too_fast', 'late_report'] });
    expect(await judged(b, honest.id)).toEqual({ verdict: 'no_verdict', reasons: [] });
    expect(await timeline(b, 'RVJQ2T8MPN')).toEqual([
      { odometer: 50_000, verdict: 'no_verdict', reasons: [] },
      { odometer: 100_000, verdict: 'implausible', reasons: ['too_fast', 'late_report'] },
    ]);
    await expectStoredAsRuled('RVJQ2T8MPN');
  });

  it('judges a backdated rollback (100,000 then 50,000) implausible, and leaves the 100,000 alone', async () => {
    const a = await createPartner(t.app);
    const before = await record(a, 'DLFFQF72UF', 100_000, ago(DAY));
    const rollback = await record(a, 'DLFFQF72UF', 50_000, ago(BACKDATED));
    // Sent on time it would have been lower_than_previous: late, it still is, and late besides.
    expect(rollback).toMatchObject({ verdict: 'implausible', reasons: ['lower_than_previous', 'late_report'] });
    expect(await judged(a, before.id)).toEqual({ verdict: 'no_verdict', reasons: [] });
    await expectStoredAsRuled('DLFFQF72UF');
  });

  it("refuses the reproduction's 89 days back: longer than a tablet holds an entry", async () => {
    const a = await createPartner(t.app);
    const b = await createPartner(t.app);
    const honest = await record(b, 'Q3TGBXRYLC', 50_000, ago(DAY));
    for (const odometer of [100_000, 20_000]) {
      const res = await post(a, 'Q3TGBXRYLC', odometer, ago(89 * DAY));
      expect(res.statusCode).toBe(400);
      expect(res.json<ApiFailure>().error.reason).toBe('recorded_at_out_of_range');
    }
    expect(await judged(b, honest.id)).toEqual({ verdict: 'no_verdict', reasons: [] });
  });
});

describe('late readings', () => {
  it('judges a late reading against both neighbours, and the readings after it against it as usual', async () => {
    const a = await createPartner(t.app);
    const b = await createPartner(t.app);
    const first = await back(20 * DAY, () => record(b, 'FWYXSZJYTX', 40_000, ago(0)));
    const last = await back(2 * DAY, () => record(b, 'FWYXSZJYTX', 46_000, ago(0)));
    expect(await judged(b, last.id)).toEqual({ verdict: 'plausible', reasons: [] });
    // Recorded 10 days ago, between them, and consistent with both: plausible, and late.
    const between = await record(a, 'FWYXSZJYTX', 43_000, ago(10 * DAY));
    expect(between).toMatchObject({ verdict: 'plausible', reasons: ['late_report'] });
    // Lower than the reading before it: implausible as it would be on time, and late.
    const dip = await record(a, 'FWYXSZJYTX', 39_000, ago(15 * DAY));
    expect(dip).toMatchObject({ verdict: 'implausible', reasons: ['lower_than_previous', 'late_report'] });
    expect(await judged(b, first.id)).toEqual({ verdict: 'no_verdict', reasons: [] });
    expect(await judged(b, last.id)).toEqual({ verdict: 'plausible', reasons: [] });
    // Received after them, late itself: judged against the reading recorded just before it, the late 43,000.
    const next = await record(b, 'FWYXSZJYTX', 41_000, ago(8 * DAY));
    expect(next).toMatchObject({ verdict: 'implausible', reasons: ['lower_than_previous', 'late_report'] });
    // Received after them, on time: judged against the reading recorded just before it (the late 41,000).
    const onTime = await record(b, 'FWYXSZJYTX', 43_500, ago(4 * DAY));
    expect(onTime).toMatchObject({ verdict: 'plausible', reasons: [] });
    expect(await judged(b, last.id)).toEqual({ verdict: 'plausible', reasons: [] });
    await expectStoredAsRuled('FWYXSZJYTX');
  });

  it('neither clears nor takes over the conflict of a reading already implausible on its own account', async () => {
    const a = await createPartner(t.app);
    const b = await createPartner(t.app);
    await back(20 * DAY, () => record(b, '9ZN5SF25BQ', 100_000, ago(0)));
    const rollback = await back(DAY, () => record(b, '9ZN5SF25BQ', 50_000, ago(0)));
    expect(rollback).toMatchObject({ verdict: 'implausible', reasons: ['lower_than_previous'] });
    // An honest reading between them, 6 days late: in line with the one before, above the rollback.
    const honest = await record(a, '9ZN5SF25BQ', 100_500, ago(7 * DAY));
    expect(honest).toMatchObject({ verdict: 'plausible', reasons: ['late_report'] });
    expect(await judged(b, rollback.id)).toEqual({ verdict: 'implausible', reasons: ['lower_than_previous'] });
    await expectStoredAsRuled('9ZN5SF25BQ');
  });

  it('counts a correction as received when the entry it corrects was: late only if that one was', async () => {
    const a = await createPartner(t.app);
    const b = await createPartner(t.app);
    // Stored on time 6 days ago, corrected today: the correction is not a late report.
    const onTime = await back(6 * DAY, () => record(a, 'TVF44AMCCQ', 60_000, ago(0)));
    const fixed = await record(a, 'TVF44AMCCQ', 60_100, onTime.recorded_at, {
      corrects: onTime.id,
      correction_reason: 'typo',
    });
    expect(fixed).toMatchObject({ verdict: 'no_verdict', reasons: [] });
    // Stored 8 days after it was recorded, and corrected: the correction is as late, and bears its conflict
    // with the reading received before the entry it corrects.
    const honest = await back(3 * DAY, () => record(b, 'Z9LBJ47BVN', 70_000, ago(0)));
    const late = await back(DAY, () => record(a, 'Z9LBJ47BVN', 69_500, ago(8 * DAY)));
    expect(late).toMatchObject({ verdict: 'plausible', reasons: ['late_report'] });
    const wrong = await record(a, 'Z9LBJ47BVN', 79_500, late.recorded_at, {
      corrects: late.id,
      correction_reason: 'typo',
    });
    expect(wrong).toMatchObject({ verdict: 'implausible', reasons: ['too_fast', 'late_report'] });
    expect(await judged(b, honest.id)).toEqual({ verdict: 'no_verdict', reasons: [] });
    await expectStoredAsRuled('TVF44AMCCQ');
    await expectStoredAsRuled('Z9LBJ47BVN');
  });

  it('judges again, after the 0004 migration, the vehicles whose verdicts the earlier rules gave', async () => {
    const a = await createPartner(t.app);
    const b = await createPartner(t.app);
    const honest = await record(b, 'PZGYG3JJFD', 50_000, ago(DAY));
    const backdated = await record(a, 'PZGYG3JJFD', 100_000, ago(BACKDATED));
    const onTime = await record(b, 'MLY6J6WXQA', 20_000, ago(2 * DAY));
    const fast = await record(b, 'MLY6J6WXQA', 30_000, ago(DAY));
    // As the earlier rules stored them: the backdated reading without a verdict, the honest one flipped.
    await t.app.db
      .update(repairs)
      .set({ verdict: 'no_verdict', reasons: ['late_report'] })
      .where(eq(repairs.id, backdated.id));
    await t.app.db
      .update(repairs)
      .set({ verdict: 'implausible', reasons: ['lower_than_previous'] })
      .where(eq(repairs.id, honest.id));
    const migration = fs.readFileSync(path.join(MIGRATIONS_FOLDER, '0004_late_readings_rejudge.sql'), 'utf8');
    await t.app.db.execute(sql.raw(migration));
    await judgeUnjudgedVehicles(t.app.db);
    expect(await judged(b, honest.id)).toEqual({ verdict: 'no_verdict', reasons: [] });
    expect(await judged(a, backdated.id)).toEqual({ verdict: 'implausible', reasons: ['too_fast', 'late_report'] });
    // A vehicle without a late reading is left as it was.
    expect(await judged(b, onTime.id)).toEqual({ verdict: 'no_verdict', reasons: [] });
    expect(await judged(b, fast.id)).toEqual({ verdict: 'implausible', reasons: ['too_fast'] });
    await expectStoredAsRuled('PZGYG3JJFD');
  });
});
