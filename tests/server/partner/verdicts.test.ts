/**
 * Stored verdicts (docs/PRODUCT.md#odometer-plausibility): re-judged when a reading arrives late,
 * consistent when readings of one vehicle arrive at once on two instances, and the vehicle's timeline
 * (docs/API.md#get-vehicleskode_idreadings).
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeReadings, type ApiSuccess, type RepairRecord, type VehicleReading } from '../../../contract';
import { repairs } from '../../../server/db/schema';
import { toReading } from '../../../server/services/repairs/judge';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import { createPartner, type TestPartner } from '../../support/partners';

const DAY = 24 * 60 * 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ago = (ms: number) => new Date(t.clock.now().getTime() - ms).toISOString();

async function record(partner: TestPartner, kodeId: string, odometer: number, recordedAt: string, app = t.app) {
  const res = await call(app, 'POST', '/api/partner/repairs', {
    token: partner.token,
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: { kode_id: kodeId, odometer, repair_type_id: 'oil_change', consented: true, recorded_at: recordedAt },
  });
  expect(res.statusCode).toBe(201);
  return res.json<ApiSuccess<RepairRecord>>().data;
}

async function ownRepair(partner: TestPartner, id: string) {
  const res = await call(t.app, 'GET', '/api/partner/repairs?limit=500', { token: partner.token });
  return res.json<ApiSuccess<RepairRecord[]>>().data.find((repair) => repair.id === id);
}

/** The verdicts stored for a vehicle, and those the rules give over its stored readings. */
async function storedAndRuled(kodeId: string) {
  const rows = await t.app.db.select().from(repairs).where(eq(repairs.kode_id, kodeId));
  const stored = Object.fromEntries(rows.map((row) => [row.id, { verdict: row.verdict, reasons: row.reasons }]));
  const ruled = judgeReadings(rows.map(toReading));
  return { stored, ruled: Object.fromEntries(ruled), count: rows.length };
}

describe('stored verdicts', () => {
  it('re-judges the next reading when one recorded before it arrives after it, on time', async () => {
    const a = await createPartner(t.app);
    const b = await createPartner(t.app);
    const wednesday = await record(b, 'T4GUH2M9UP', 100_050, ago(2 * DAY));
    expect(wednesday).toMatchObject({ verdict: 'no_verdict', reasons: [], odometer_anomaly: false });
    // Monday's reading, taken offline by another garage, arrives after Wednesday's, within 5 days, and higher.
    const monday = await record(a, 'T4GUH2M9UP', 101_000, ago(4 * DAY));
    expect(monday).toMatchObject({ verdict: 'no_verdict', reasons: [] });
    expect(await ownRepair(b, wednesday.id)).toMatchObject({
      verdict: 'implausible',
      reasons: ['lower_than_previous'],
      odometer_anomaly: true,
    });
    const { stored, ruled } = await storedAndRuled('T4GUH2M9UP');
    expect(stored).toEqual(ruled);
  });

  it('leaves the next reading alone when the one recorded before it arrives late: the late one bears the dip', async () => {
    const a = await createPartner(t.app);
    const b = await createPartner(t.app);
    const wednesday = await record(b, 'N4J35PW3NJ', 100_050, ago(4 * DAY));
    // The same Monday reading, 6 days late: more than LATE_REPORT_MS.
    const monday = await record(a, 'N4J35PW3NJ', 101_000, ago(6 * DAY));
    expect(monday).toMatchObject({ verdict: 'implausible', reasons: ['too_fast', 'late_report'] });
    expect(await ownRepair(b, wednesday.id)).toMatchObject({ verdict: 'no_verdict', reasons: [] });
    const { stored, ruled } = await storedAndRuled('N4J35PW3NJ');
    expect(stored).toEqual(ruled);
  });

  it('gives each answer the verdict stored with the repair', async () => {
    const p = await createPartner(t.app);
    await record(p, 'TEQUFH2RP7', 40_000, ago(3 * DAY));
    const fast = await record(p, 'TEQUFH2RP7', 41_501, ago(2 * DAY));
    expect(fast).toMatchObject({ verdict: 'implausible', reasons: ['too_fast'], odometer_anomaly: true });
    expect(await ownRepair(p, fast.id)).toEqual(fast);
  });

  it('keeps the stored verdicts equal to the rules when readings of one vehicle arrive at once on two instances', async () => {
    const other = t.kind === 'postgres' ? await createTestApp({ sameDatabaseAs: t }) : null;
    try {
      const apps = [t.app, other?.app ?? t.app];
      const garages = await Promise.all(apps.map((app) => createPartner(app)));
      // Recorded a day apart, sent in shuffled order, with dips and jumps, so every insert changes a neighbour.
      const odometers = [
        10_000, 10_900, 10_500, 11_800, 11_200, 14_000, 12_500, 13_000, 12_000, 13_900, 13_100, 15_000,
      ];
      const sends = odometers.map((odometer, day) => ({ odometer, day }));
      sends.sort(() => Math.random() - 0.5);
      await Promise.all(
        sends.map(({ odometer, day }, index) =>
          record(garages[index % 2] as TestPartner, 'B8RXR7BP4R', odometer, ago((20 - day) * DAY), apps[index % 2]),
        ),
      );
      const { stored, ruled, count } = await storedAndRuled('B8RXR7BP4R');
      expect(count).toBe(odometers.length);
      expect(stored).toEqual(ruled);
    } finally {
      await other?.close();
    }
  });
});

describe('GET /api/partner/vehicles/{kode_id}/readings', () => {
  let mine: TestPartner;
  let theirs: TestPartner & { record?: RepairRecord };
  const kodeId = 'UAWT88PAN7';
  const readings = async (partner: TestPartner, id = kodeId) =>
    call(t.app, 'GET', `/api/partner/vehicles/${id}/readings`, { token: partner.token });

  beforeAll(async () => {
    mine = await createPartner(t.app);
    theirs = await createPartner(t.app);
    await record(mine, kodeId, 50_000, ago(3 * DAY));
    theirs.record = await record(theirs, kodeId, 49_000, ago(2 * DAY));
    await record(mine, kodeId, 50_200, ago(1 * DAY));
  });

  it('lists the readings of every garage, newest first, with verdicts and whether the caller took them', async () => {
    const res = await readings(mine, kodeId.toLowerCase());
    expect(res.statusCode).toBe(200);
    expect(res.json<ApiSuccess<VehicleReading[]>>().data).toEqual([
      {
        odometer: 50_200,
        recorded_at: expect.any(String),
        verdict: 'plausible',
        reasons: [],
        own: true,
        has_photo: false,
      },
      {
        odometer: 49_000,
        recorded_at: expect.any(String),
        verdict: 'implausible',
        reasons: ['lower_than_previous'],
        own: false,
        has_photo: false,
      },
      {
        odometer: 50_000,
        recorded_at: expect.any(String),
        verdict: 'no_verdict',
        reasons: [],
        own: true,
        has_photo: false,
      },
    ]);
    const other = await readings(theirs);
    expect(other.json<ApiSuccess<VehicleReading[]>>().data.map((reading) => reading.own)).toEqual([false, true, false]);
  });

  it('never shows another garage’s identity or ids', async () => {
    const text = (await readings(mine)).body;
    expect(text).not.toContain(theirs.id);
    expect(text).not.toContain(theirs.email);
    expect(text).not.toContain(theirs.record?.id ?? 'no id');
    expect(text).not.toContain(theirs.record?.idempotency_key ?? 'no key');
    for (const reading of (await readings(mine)).json<ApiSuccess<VehicleReading[]>>().data) {
      expect(Object.keys(reading).sort()).toEqual([
        'has_photo',
        'odometer',
        'own',
        'reasons',
        'recorded_at',
        'verdict',
      ]);
    }
  });

  it('answers 404 for an unknown vehicle, 400 for a malformed id, 401 without a token', async () => {
    expect((await readings(mine, 'ZZZZZZZZZ9')).json()).toMatchObject({
      code: 404,
      error: { reason: 'vehicle_not_found' },
    });
    expect((await readings(mine, 'abc')).json()).toMatchObject({ code: 400, error: { reason: 'kode_id_invalid' } });
    expect((await call(t.app, 'GET', `/api/partner/vehicles/${kodeId}/readings`)).statusCode).toBe(401);
  });
});
