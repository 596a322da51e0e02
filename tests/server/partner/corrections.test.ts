/** Corrections, never overwrites (docs/API.md#corrections). */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CORRECTION_WINDOW_MS,
  type ApiFailure,
  type ApiSuccess,
  type RepairRecord,
  type Statistics,
} from '../../../contract';
import { MIGRATIONS_FOLDER } from '../../../server/db/client';
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

function post(
  partner: TestPartner,
  body: Record<string, unknown>,
  key: string = crypto.randomUUID(),
  headers: Record<string, string> = {},
) {
  return call(t.app, 'POST', '/api/partner/repairs', {
    token: partner.token,
    headers: { 'idempotency-key': key, ...headers },
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
      recorded_at: typo.recorded_at,
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
        recorded_at: replaced.recorded_at,
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
      recorded_at: wrong.recorded_at,
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
      recorded_at: original.recorded_at,
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
        recorded_at: original.recorded_at,
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
        recorded_at: original.recorded_at,
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
          recorded_at: repair.recorded_at,
          corrects: repair.id,
          correction_reason: 'typo',
        }),
        post(p, {
          kode_id: 'MP97RDXATY',
          odometer: 5_002,
          recorded_at: repair.recorded_at,
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
          recorded_at: repair.recorded_at,
          corrects: repair.id,
          correction_reason: 'typo',
        });
      expect((await fix(inside)).statusCode).toBe(201);
      expectRefused(await fix(outside), 422, 'correction_window_closed');
      expect((await byId(p, outside.id))?.superseded_by).toBeNull();
    });
  });
});

describe('what a correction keeps', () => {
  /** The words a refusal is answered with in each language, with the field it is given under. */
  async function refusalWords(partner: TestPartner, body: Record<string, unknown>) {
    const words: Record<string, unknown> = {};
    for (const language of ['fr', 'ar', 'en']) {
      const res = await post(partner, body, crypto.randomUUID(), { 'accept-language': language });
      expect(res.statusCode, res.body).toBe(400);
      words[language] = res.json<ApiFailure>().error;
    }
    return words;
  }

  it.each(['typo', 'miles_as_km', 'odometer_replaced'])(
    'refuses another vehicle with %s: 400 correction_vehicle_changed, worded in French, Arabic and English',
    async (reason) => {
      const p = await createPartner(t.app);
      const original = await record(p, 'AG7BA8GYFC', 30_000, ago(DAY));
      const words = await refusalWords(p, {
        kode_id: 'H8Z3RFVCAU',
        odometer: 30_000,
        recorded_at: original.recorded_at,
        corrects: original.id,
        correction_reason: reason,
      });
      const fr = 'Seul le motif « Mauvais véhicule » permet de changer le KODE ID';
      const ar = 'لا يسمح بتغيير معرّف KODE ID إلا سبب «مركبة خاطئة»';
      const en = 'Only the reason “Wrong vehicle” lets a correction change the KODE ID';
      const refusal = (message: string) => ({
        type: 'validation',
        reason: 'correction_vehicle_changed',
        message,
        fields: { kode_id: message },
      });
      expect(words).toEqual({ fr: refusal(fr), ar: refusal(ar), en: refusal(en) });
      expect(await byId(p, original.id)).toMatchObject({ superseded_by: null });
      expect((await history(p)).map((repair) => repair.vehicle.kode_id)).toEqual(['AG7BA8GYFC']);
    },
  );

  it('lets wrong_vehicle alone change the vehicle, and any reason keep it', async () => {
    const p = await createPartner(t.app);
    const original = await record(p, 'AG7BA8GYFC', 30_000, ago(DAY));
    const kept = await post(p, {
      kode_id: 'ag7ba8gyfc',
      odometer: 30_100,
      recorded_at: original.recorded_at,
      corrects: original.id,
      correction_reason: 'typo',
    });
    expect(kept.statusCode).toBe(201);
    const moved = await post(p, {
      kode_id: 'H8Z3RFVCAU',
      odometer: 30_100,
      recorded_at: original.recorded_at,
      corrects: kept.json<ApiSuccess<RepairRecord>>().data.id,
      correction_reason: 'wrong_vehicle',
    });
    expect(moved.statusCode).toBe(201);
    expect(moved.json<ApiSuccess<RepairRecord>>().data.vehicle.kode_id).toBe('H8Z3RFVCAU');
  });

  it('refuses another recorded_at: 400 correction_recorded_at_changed, worded in French, Arabic and English', async () => {
    const p = await createPartner(t.app);
    const original = await record(p, '6NCQKMJHEP', 40_000, ago(MINUTE));
    const words = await refusalWords(p, {
      kode_id: '6NCQKMJHEP',
      odometer: 40_100,
      recorded_at: ago(89 * DAY),
      corrects: original.id,
      correction_reason: 'typo',
    });
    const refusal = (message: string) => ({
      type: 'validation',
      reason: 'correction_recorded_at_changed',
      message,
      fields: { recorded_at: message },
    });
    expect(words).toEqual({
      fr: refusal('Une correction garde la date de saisie de la saisie qu’elle corrige'),
      ar: refusal('يجب أن يحمل التصحيح تاريخ الإدخال الذي يصححه نفسه'),
      en: refusal('A correction keeps the entry date of the entry it corrects'),
    });
    expect(await byId(p, original.id)).toMatchObject({ superseded_by: null });
  });

  it('takes the original’s recorded_at in any notation of the same instant', async () => {
    const p = await createPartner(t.app);
    const original = await record(p, 'WPM5KT7JEE', 40_000, ago(DAY));
    const instant = new Date(original.recorded_at);
    const local = new Date(instant.getTime() + 60 * MINUTE).toISOString().replace('Z', '+01:00');
    const res = await post(p, {
      kode_id: 'WPM5KT7JEE',
      odometer: 40_100,
      recorded_at: local,
      corrects: original.id,
      correction_reason: 'typo',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<ApiSuccess<RepairRecord>>().data.recorded_at).toBe(original.recorded_at);
  });

  it('corrects a reading recorded long before it was stored: its moment is not judged by the recorded_at window again', async () => {
    const p = await createPartner(t.app);
    const original = await record(p, 'D9USL68JBF', 40_000, ago(DAY));
    // Stored 6 days ago, recorded 86 days before that (as a window of 90 days once allowed): 92 days ago
    // today, past any window, and still correctable.
    const recordedAt = new Date(t.clock.now().getTime() - 92 * DAY);
    await t.app.db
      .update(repairs)
      .set({ recorded_at: recordedAt, created_at: new Date(t.clock.now().getTime() - 6 * DAY) })
      .where(eq(repairs.id, original.id));
    const res = await post(p, {
      kode_id: 'D9USL68JBF',
      odometer: 40_100,
      recorded_at: recordedAt.toISOString(),
      corrects: original.id,
      correction_reason: 'typo',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<ApiSuccess<RepairRecord>>().data.recorded_at).toBe(recordedAt.toISOString());
  });
});

describe('the correction window runs from the original', () => {
  /**
   * Runs `fn` with the app's clock `ms` in the past, so what it stores was stored then. The partner's
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
  const correct = (p: TestPartner, repair: RepairRecord, odometer: number) =>
    post(p, {
      kode_id: repair.vehicle.kode_id,
      odometer,
      recorded_at: repair.recorded_at,
      corrects: repair.id,
      correction_reason: 'typo',
    });
  async function corrected(p: TestPartner, repair: RepairRecord, odometer: number) {
    const res = await correct(p, repair, odometer);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ApiSuccess<RepairRecord>>().data;
  }

  it('refuses to correct a correction of a reading stored 13 days ago: 422 correction_window_closed', async () => {
    const p = await createPartner(t.app);
    const original = await back(13 * DAY, () => record(p, 'AZSLRURFZ7', 20_000, ago(MINUTE)));
    // Corrected 6.5 days after it was stored, within its window; the correction itself is 6.5 days old.
    const correction = await back(6.5 * DAY, () => corrected(p, original, 20_100));
    expectRefused(await correct(p, correction, 20_200), 422, 'correction_window_closed');
    expect((await byId(p, correction.id))?.superseded_by).toBeNull();
  });

  it('follows a chain of corrections back to its original', async () => {
    const p = await createPartner(t.app);
    const chain = async (kodeId: string, storedAgo: number) => {
      let last = await back(storedAgo, () => record(p, kodeId, 20_000, ago(MINUTE)));
      for (const [index, odometer] of [20_010, 20_020, 20_030].entries()) {
        last = await back((6 - index) * DAY, () => corrected(p, last, odometer));
      }
      return last;
    };
    const closed = await chain('6X8ZEB76CH', CORRECTION_WINDOW_MS + MINUTE);
    expectRefused(await correct(p, closed, 20_040), 422, 'correction_window_closed');
    const open = await chain('XRKFC7W3HP', CORRECTION_WINDOW_MS - MINUTE);
    expect((await correct(p, open, 20_040)).statusCode).toBe(201);
  });

  it('gives corrections stored before the 0003 migration the window of their chain’s original', async () => {
    const p = await createPartner(t.app);
    const original = await back(6 * DAY, () => record(p, 'RVJQ2T8MPN', 20_000, ago(MINUTE)));
    const first = await back(4 * DAY, () => corrected(p, original, 20_100));
    const second = await back(2 * DAY, () => corrected(p, first, 20_200));
    const until = new Date(Date.parse(original.created_at) + CORRECTION_WINDOW_MS).toISOString();
    // As a database migrated before the column existed: corrections without the moment their window runs from.
    await t.app.db
      .update(repairs)
      .set({ original_created_at: null })
      .where(inArray(repairs.id, [first.id, second.id]));
    expect(await byId(p, second.id)).not.toMatchObject({ correctable_until: until });
    const migration = fs.readFileSync(path.join(MIGRATIONS_FOLDER, '0003_correction_window_origin.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint').slice(1)) {
      await t.app.db.execute(sql.raw(statement));
    }
    expect(await byId(p, second.id)).toMatchObject({ correctable_until: until });
    expect(await byId(p, original.id)).toMatchObject({ correctable_until: null });
    const rows = await t.app.db
      .select()
      .from(repairs)
      .where(inArray(repairs.id, [original.id, first.id, second.id]));
    expect(Object.fromEntries(rows.map((row) => [row.id, row.original_created_at?.toISOString() ?? null]))).toEqual({
      [original.id]: null,
      [first.id]: original.created_at,
      [second.id]: original.created_at,
    });
  });

  it('reports correctable_until from the original on every standing repair of its chain, null once superseded', async () => {
    const p = await createPartner(t.app);
    const fresh = await record(p, 'LL3RAXPBJG', 20_000, ago(MINUTE));
    const windowOf = (repair: RepairRecord) =>
      new Date(Date.parse(repair.created_at) + CORRECTION_WINDOW_MS).toISOString();
    expect(fresh.correctable_until).toBe(windowOf(fresh));
    const original = await back(5 * DAY, () => record(p, 'BZ88MZNLUD', 20_000, ago(MINUTE)));
    const first = await back(2 * DAY, () => corrected(p, original, 20_100));
    const second = await corrected(p, first, 20_200);
    expect(second.correctable_until).toBe(windowOf(original));
    expect(await byId(p, second.id)).toMatchObject({ correctable_until: windowOf(original) });
    expect(await byId(p, first.id)).toMatchObject({ correctable_until: null });
    expect(await byId(p, original.id)).toMatchObject({ correctable_until: null });
  });
});
