/**
 * "The latest reading" of a vehicle, wherever it is read: the lookup, the timeline, the stored verdicts
 * and the statistics all skip the readings a correction superseded, and order readings of one moment
 * the same way (recorded_at, then id: docs/PRODUCT.md#odometer-plausibility). A correction keeps the
 * moment of the reading it corrects, so the two always tie: each check runs over many vehicles, so a
 * tie left to chance (random ids) fails reliably.
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  judgeReadings,
  type ApiSuccess,
  type RepairRecord,
  type Statistics,
  type Vehicle,
  type VehicleReading,
} from '../../../contract';
import { repairs } from '../../../server/db/schema';
import { toReading } from '../../../server/services/repairs/judge';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import { createPartner, type TestPartner } from '../../support/partners';

const DAY = 24 * 60 * 60 * 1000;

/** Twelve demo vehicles per check: a coin toss per vehicle passes all twelve once in 4,096 runs. */
const VEHICLES = [
  'KODE000001',
  'KODE000002',
  'KODE000003',
  'V3SMJ5P6FX',
  'T4GUH2M9UP',
  'TEQUFH2RP7',
  'B8RXR7BP4R',
  'UAWT88PAN7',
  'Q8Q2A9XPGC',
  'T9HZHAX5QQ',
  '7CBHHHRYDN',
  '7BQA4JJ2V3',
];
const MORE_VEHICLES = [
  'MP97RDXATY',
  '6TANY3MFTJ',
  '7Y5ELYNYL3',
  'AG7BA8GYFC',
  'H8Z3RFVCAU',
  '6NCQKMJHEP',
  'WPM5KT7JEE',
  'D9USL68JBF',
  'AZSLRURFZ7',
  '6X8ZEB76CH',
  'LL3RAXPBJG',
  'XRKFC7W3HP',
];
const LEGACY_VEHICLES = [
  'BZ88MZNLUD',
  'LRKQ5KFWPL',
  '3JWUNM7NKT',
  'V9VQGFRRH2',
  '5XMHRUACYR',
  '48S7RP6Q5V',
  'GWYXHYRTFB',
  'G3ZT972YHQ',
  'F9U4AF2GQQ',
  '5FUF28NGCE',
  'PWQYT3MQ35',
  'RVJQ2T8MPN',
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ago = (ms: number) => new Date(t.clock.now().getTime() - ms).toISOString();

function post(partner: TestPartner, body: Record<string, unknown>) {
  return call(t.app, 'POST', '/api/partner/repairs', {
    token: partner.token,
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: { repair_type_id: 'oil_change', consented: true, ...body },
  });
}

async function record(partner: TestPartner, body: Record<string, unknown>) {
  const res = await post(partner, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ApiSuccess<RepairRecord>>().data;
}

async function lookup(partner: TestPartner, kodeId: string) {
  const res = await call(t.app, 'GET', `/api/partner/vehicles/${kodeId}`, { token: partner.token });
  expect(res.statusCode).toBe(200);
  return res.json<ApiSuccess<Vehicle>>().data;
}

async function timeline(partner: TestPartner, kodeId: string) {
  const res = await call(t.app, 'GET', `/api/partner/vehicles/${kodeId}/readings`, { token: partner.token });
  expect(res.statusCode).toBe(200);
  return res.json<ApiSuccess<VehicleReading[]>>().data;
}

/** 452,000 typed for 45,200, then corrected with the same recorded_at: the reproduction. */
async function typoCorrected(partner: TestPartner, kodeId: string, recordedAt: string) {
  const typo = await record(partner, { kode_id: kodeId, odometer: 452_000, recorded_at: recordedAt });
  const correction = await record(partner, {
    kode_id: kodeId,
    odometer: 45_200,
    recorded_at: recordedAt,
    corrects: typo.id,
    correction_reason: 'typo',
  });
  return { typo, correction };
}

describe('the latest reading skips superseded readings, whatever their ids', () => {
  let p: TestPartner;
  beforeAll(async () => {
    p = await createPartner(t.app);
  });

  it('GET /vehicles/{kode_id} gives the correction, never the reading it replaced', async () => {
    const at = ago(DAY);
    const looked: Record<string, number | null> = {};
    for (const kodeId of VEHICLES) {
      await typoCorrected(p, kodeId, at);
      looked[kodeId] = (await lookup(p, kodeId)).last_odometer;
    }
    expect(looked).toEqual(Object.fromEntries(VEHICLES.map((kodeId) => [kodeId, 45_200])));
  });

  it('agrees with the timeline’s newest reading and the stored verdicts', async () => {
    const at = ago(2 * DAY);
    for (const kodeId of MORE_VEHICLES) {
      // A reading before the typo: the correction is judged against it, the typo is out of the rules.
      await record(p, { kode_id: kodeId, odometer: 45_000, recorded_at: ago(3 * DAY) });
      const { typo, correction } = await typoCorrected(p, kodeId, at);
      const vehicle = await lookup(p, kodeId);
      const readings = await timeline(p, kodeId);
      expect(readings.map((reading) => reading.odometer)).toEqual([45_200, 45_000]);
      expect({ odometer: vehicle.last_odometer, at: vehicle.last_odometer_at }).toEqual({
        odometer: readings[0]?.odometer,
        at: readings[0]?.recorded_at,
      });
      expect(readings[0]).toMatchObject({ verdict: 'plausible', reasons: [] });
      const rows = await t.app.db.select().from(repairs).where(eq(repairs.kode_id, kodeId));
      const ruled = judgeReadings(rows.map(toReading));
      expect(ruled.get(typo.id)).toEqual({ verdict: 'no_verdict', reasons: [] });
      expect(ruled.get(correction.id)).toEqual({ verdict: 'plausible', reasons: [] });
      for (const row of rows) expect({ verdict: row.verdict, reasons: row.reasons }).toEqual(ruled.get(row.id));
    }
  });

  it('orders two standing readings of one moment the same way in the lookup, the timeline and the verdicts', async () => {
    const other = await createPartner(t.app);
    const at = ago(DAY);
    for (const kodeId of LEGACY_VEHICLES.slice(0, 6)) {
      const first = await record(p, { kode_id: kodeId, odometer: 70_000, recorded_at: at });
      const second = await record(other, { kode_id: kodeId, odometer: 70_050, recorded_at: at });
      // Recorded order is (recorded_at, id): of two readings of one moment, the larger id comes last.
      const [earlier, later] = [first, second].sort((a, b) => (a.id < b.id ? -1 : 1));
      const vehicle = await lookup(p, kodeId);
      const readings = await timeline(p, kodeId);
      expect(vehicle.last_odometer).toBe(later?.odometer);
      expect(readings.map((reading) => reading.odometer)).toEqual([later?.odometer, earlier?.odometer]);
      expect(readings[1]).toMatchObject({ verdict: 'no_verdict' });
      expect(readings[0]).toMatchObject({ verdict: 'plausible' });
    }
  });
});

describe('GET /statistics skips superseded readings for the last repair', () => {
  it('gives the moment of the standing correction, not of the reading it replaced', async () => {
    // Corrections stored before a correction had to keep its original's recorded_at (docs/API.md#corrections)
    // may be earlier than the reading they replaced: the superseded reading is not the partner's last one.
    const lastAt: (string | null)[] = [];
    const lastOdometers: (number | null)[] = [];
    for (const kodeId of LEGACY_VEHICLES.slice(6)) {
      const p = await createPartner(t.app);
      const { correction } = await typoCorrected(p, kodeId, ago(DAY));
      const earlier = new Date(t.clock.now().getTime() - 10 * DAY);
      await t.app.db.update(repairs).set({ recorded_at: earlier }).where(eq(repairs.id, correction.id));
      const res = await call(t.app, 'GET', '/api/partner/statistics', { token: p.token });
      lastAt.push(res.json<ApiSuccess<Statistics>>().data.last_repair_at);
      lastOdometers.push((await lookup(p, kodeId)).last_odometer);
    }
    const days = lastAt.map((at) => Math.round((t.clock.now().getTime() - Date.parse(at ?? '')) / DAY));
    expect(days).toEqual(lastAt.map(() => 10));
    expect(lastOdometers).toEqual(lastAt.map(() => 45_200));
  });
});
