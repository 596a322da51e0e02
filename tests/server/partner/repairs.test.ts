import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure, ApiSuccess, RepairRecord } from '../../../contract';
import { CORRECTION_WINDOW_MS, ODOMETER_MAX_KM_PER_DAY, RECORDED_AT_MAX_AGE_MS, repairEntry } from '../../../contract';
import { repairs, sessions } from '../../../server/db/schema';
import { createRepair } from '../../../server/services/repairs';
import { requestHash } from '../../../server/services/request-hash';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import { createPartner, type TestPartner } from '../../support/partners';

const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function entry(overrides: Record<string, unknown> = {}) {
  return {
    kode_id: 'KODE000001',
    odometer: 120_000,
    repair_type_id: 'oil_change',
    note: '',
    consented: true,
    recorded_at: t.clock.now().toISOString(),
    ...overrides,
  };
}

/** recorded_at `ms` before the app's now. */
const ago = (ms: number) => new Date(t.clock.now().getTime() - ms).toISOString();

async function post(
  partner: TestPartner,
  body: unknown,
  key: string | null = crypto.randomUUID(),
  headers: Record<string, string> = {},
) {
  return call(t.app, 'POST', '/api/partner/repairs', {
    token: partner.token,
    body,
    headers: key === null ? headers : { 'idempotency-key': key, ...headers },
  });
}

async function rowsOf(partner: TestPartner) {
  return t.app.db.select().from(repairs).where(eq(repairs.partner_id, partner.id));
}

function expectError(
  res: Awaited<ReturnType<typeof call>>,
  code: number,
  type: string,
  reason?: string,
): ApiFailure['error'] {
  expect(res.statusCode).toBe(code);
  const body = res.json<ApiFailure>();
  expect(body).toMatchObject({ code, status: 'error', error: { type } });
  if (reason) expect(body.error.reason).toBe(reason);
  expect(typeof body.error.message).toBe('string');
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
  return body.error;
}

describe('POST /api/partner/repairs', () => {
  let partner: TestPartner;
  beforeAll(async () => {
    partner = await createPartner(t.app);
  });

  it('stores the repair and answers 201 with it, vehicle and repair type included', async () => {
    const recordedAt = ago(10 * MINUTE);
    const key = crypto.randomUUID();
    const res = await post(
      partner,
      entry({ kode_id: 'kode000002', odometer: 87_500, note: '  Filtre à huile changé  ', recorded_at: recordedAt }),
      key,
    );
    expect(res.statusCode).toBe(201);
    const body = res.json<ApiSuccess<RepairRecord>>();
    expect(body).toEqual({
      code: 201,
      status: 'success',
      data: {
        id: expect.any(String),
        vehicle: { kode_id: 'KODE000002', vin: 'VF12T7VY4HJ685969', brand: 'Renault', name: 'Clio 5', year: 2017 },
        repair_type: { id: 'oil_change', name: 'Vidange', name_ar: 'تغيير الزيت', name_en: 'Oil change' },
        odometer: 87_500,
        note: 'Filtre à huile changé',
        verdict: 'no_verdict',
        reasons: [],
        odometer_anomaly: false,
        superseded_by: null,
        corrects: null,
        correction_reason: null,
        recorded_at: recordedAt,
        created_at: expect.any(String),
        correctable_until: expect.any(String),
        photo: null,
        idempotency_key: key,
      },
    });
    const createdAt = new Date(body.data.created_at).getTime();
    expect(Math.abs(createdAt - t.clock.now().getTime())).toBeLessThan(5000);
    expect(body.data.correctable_until).toBe(new Date(createdAt + CORRECTION_WINDOW_MS).toISOString());
    const [row] = await t.app.db.select().from(repairs).where(eq(repairs.id, body.data.id));
    expect(row).toMatchObject({ partner_id: partner.id, kode_id: 'KODE000002', note: 'Filtre à huile changé' });
  });

  it('accepts a recorded_at with an offset and stores the same instant', async () => {
    const res = await post(partner, entry({ kode_id: 'KODE000003', recorded_at: '2000-01-01T00:00:00+01:00' }));
    // 2000 is far outside the window: the offset form is parsed, then refused for its age.
    expectError(res, 400, 'validation', 'recorded_at_out_of_range');
    const now = t.clock.now();
    const local = new Date(now.getTime() - 60 * MINUTE);
    const withOffset = `${local.toISOString().slice(0, 19)}+00:00`;
    const ok = await post(partner, entry({ kode_id: 'KODE000003', odometer: 5000, recorded_at: withOffset }));
    expect(ok.statusCode).toBe(201);
    expect(ok.json<ApiSuccess<RepairRecord>>().data.recorded_at).toBe(`${local.toISOString().slice(0, 19)}.000Z`);
  });

  describe('idempotency', () => {
    it('stores one row for the same key sent twice: 201, then 200 with the stored repair', async () => {
      const p = await createPartner(t.app);
      const key = crypto.randomUUID();
      const body = entry({ kode_id: 'V3SMJ5P6FX', odometer: 1000, recorded_at: ago(MINUTE) });
      const first = await post(p, body, key);
      const second = await post(p, body, key);
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(200);
      expect(second.json<ApiSuccess<RepairRecord>>()).toEqual({
        ...first.json<ApiSuccess<RepairRecord>>(),
        code: 200,
      });
      expect(await rowsOf(p)).toHaveLength(1);
    });

    it('treats an upper-case key as the same key', async () => {
      const p = await createPartner(t.app);
      const key = crypto.randomUUID();
      const body = entry({ kode_id: 'V3SMJ5P6FX', odometer: 1000, recorded_at: ago(MINUTE) });
      expect((await post(p, body, key)).statusCode).toBe(201);
      expect((await post(p, body, key.toUpperCase())).statusCode).toBe(200);
      expect(await rowsOf(p)).toHaveLength(1);
    });

    it('stores one row when both copies arrive at once, and neither fails', async () => {
      const p = await createPartner(t.app);
      const key = crypto.randomUUID();
      const body = entry({ kode_id: 'V3SMJ5P6FX', odometer: 1000, recorded_at: ago(MINUTE) });
      const answers = await Promise.all([post(p, body, key), post(p, body, key)]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 201]);
      const [a, b] = answers.map((res) => res.json<ApiSuccess<RepairRecord>>().data);
      expect(a?.id).toBe(b?.id);
      expect(await rowsOf(p)).toHaveLength(1);
    });

    it('stores one row for many copies at once', async () => {
      const p = await createPartner(t.app);
      const key = crypto.randomUUID();
      const body = entry({ kode_id: 'V3SMJ5P6FX', odometer: 1000, recorded_at: ago(MINUTE) });
      const answers = await Promise.all(Array.from({ length: 6 }, () => post(p, body, key)));
      const codes = answers.map((res) => res.statusCode);
      expect(codes.filter((code) => code === 201)).toHaveLength(1);
      expect(codes.filter((code) => code === 200)).toHaveLength(5);
      expect(await rowsOf(p)).toHaveLength(1);
    });

    it('lets the unique index settle a race that both requests reach the insert in', async () => {
      // Both requests found no stored repair and both insert: ON CONFLICT DO NOTHING keeps one row and
      // the loser reads the winner's. Called directly so the race happens on every database.
      const p = await createPartner(t.app);
      const input = {
        partnerId: p.id,
        idempotencyKey: crypto.randomUUID(),
        requestHash: 'hash-of-the-body',
        kodeId: 'V3SMJ5P6FX',
        repairTypeId: 'oil_change',
        odometer: 1000,
        note: '',
        recordedAt: t.clock.now(),
        createdAt: t.clock.now(),
      };
      const first = await createRepair(t.app.db, input);
      const second = await createRepair(t.app.db, { ...input, odometer: 2000 });
      expect(first.kind).toBe('created');
      expect(second).toMatchObject({ kind: 'exists', stored: { requestHash: 'hash-of-the-body' } });
      if (first.kind === 'created' && second.kind === 'exists') expect(second.stored.repair).toEqual(first.repair);
      expect(await rowsOf(p)).toHaveLength(1);
    });

    it('answers 422 conflict for the same key with a different body, and keeps the first repair', async () => {
      const p = await createPartner(t.app);
      const key = crypto.randomUUID();
      const body = entry({ kode_id: 'V3SMJ5P6FX', odometer: 1000, recorded_at: ago(MINUTE) });
      expect((await post(p, body, key)).statusCode).toBe(201);
      const res = await post(p, { ...body, odometer: 1001 }, key);
      expectError(res, 422, 'conflict', 'idempotency_conflict');
      const stored = await rowsOf(p);
      expect(stored).toHaveLength(1);
      expect(stored[0]?.odometer).toBe(1000);
    });

    it('answers 422 when different bodies with one key arrive at once, storing exactly one', async () => {
      const p = await createPartner(t.app);
      const key = crypto.randomUUID();
      const body = entry({ kode_id: 'V3SMJ5P6FX', odometer: 1000, recorded_at: ago(MINUTE) });
      const answers = await Promise.all([post(p, body, key), post(p, { ...body, odometer: 2000 }, key)]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 422]);
      expect(await rowsOf(p)).toHaveLength(1);
    });

    it('still answers a replay with 200 after recorded_at has left the window', async () => {
      const p = await createPartner(t.app);
      const key = crypto.randomUUID();
      // Stored two days after Insert; its response was lost, and the tablet retries today, a day past the window.
      const body = entry({ kode_id: 'V3SMJ5P6FX', odometer: 1000, recorded_at: ago(RECORDED_AT_MAX_AGE_MS + DAY) });
      const [stored] = await t.app.db
        .insert(repairs)
        .values({
          partner_id: p.id,
          kode_id: 'V3SMJ5P6FX',
          repair_type_id: 'oil_change',
          odometer: 1000,
          recorded_at: new Date(body.recorded_at),
          created_at: new Date(Date.parse(body.recorded_at) + 2 * DAY),
          idempotency_key: key,
          request_hash: requestHash(repairEntry.parse(body)),
        })
        .returning();
      const again = await post(p, body, key);
      expect(again.statusCode).toBe(200);
      expect(again.json<ApiSuccess<RepairRecord>>().data).toMatchObject({
        id: stored?.id,
        recorded_at: body.recorded_at,
      });
      // A new key with the same, too old, entry is refused.
      expectError(await post(p, body), 400, 'validation', 'recorded_at_out_of_range');
      expect(await rowsOf(p)).toHaveLength(1);
    });

    it('answers 400 idempotency_key_invalid without the header or with a key that is not a UUID', async () => {
      for (const key of [
        null,
        '',
        'not-a-uuid',
        '12345',
        `${crypto.randomUUID()}x`,
        'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
      ]) {
        const res = await post(partner, entry(), key);
        const error = expectError(res, 400, 'validation', 'idempotency_key_invalid');
        expect(error.message).toBe("L'en-tête Idempotency-Key doit être un UUID");
      }
    });
  });

  describe('validation', () => {
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['kode_id too short', { kode_id: 'KODE00001' }, 'kode_id', 'Veuillez saisir un KODE ID valide'],
      ['kode_id too long', { kode_id: 'KODE0000011' }, 'kode_id', 'Veuillez saisir un KODE ID valide'],
      ['kode_id with a dash', { kode_id: 'KODE-00001' }, 'kode_id', 'Veuillez saisir un KODE ID valide'],
      ['kode_id a number', { kode_id: 1234567890 }, 'kode_id', 'Veuillez saisir un KODE ID valide'],
      ['odometer 0', { odometer: 0 }, 'odometer', 'Veuillez saisir un kilometrage valide'],
      ['odometer negative', { odometer: -5 }, 'odometer', 'Veuillez saisir un kilometrage valide'],
      ['odometer fractional', { odometer: 1000.5 }, 'odometer', 'Veuillez saisir un kilometrage valide'],
      ['odometer over 2,000,000', { odometer: 2_000_001 }, 'odometer', 'Veuillez saisir un kilometrage valide'],
      ['odometer a string', { odometer: '1000' }, 'odometer', 'Veuillez saisir un kilometrage valide'],
      ['repair type empty', { repair_type_id: '' }, 'repair_type_id', 'Veuillez choisir un type de panne'],
      ['repair type missing', { repair_type_id: undefined }, 'repair_type_id', 'Veuillez choisir un type de panne'],
      ['consent false', { consented: false }, 'consented', 'Veuillez confirmer les informations avant de soumettre'],
      [
        'consent missing',
        { consented: undefined },
        'consented',
        'Veuillez confirmer les informations avant de soumettre',
      ],
      ['note too long', { note: 'x'.repeat(1001) }, 'note', 'La note est trop longue (1000 caractères au plus)'],
      ['recorded_at not a date', { recorded_at: 'yesterday' }, 'recorded_at', "La date de saisie n'est pas valide"],
      ['recorded_at missing', { recorded_at: undefined }, 'recorded_at', "La date de saisie n'est pas valide"],
    ];
    it.each(cases)('answers 400 for %s', async (_name, overrides, field, message) => {
      const res = await post(partner, entry(overrides));
      const error = expectError(res, 400, 'validation');
      expect(error.fields?.[field]).toBe(message);
      expect(error.message).toBe(message);
    });

    it('refuses vehicle fields of the wrong type', async () => {
      for (const overrides of [{ year: { a: 1 } }, { vin: 12 }, { brand: 'x'.repeat(81) }, { model: [] }]) {
        const error = expectError(await post(partner, entry(overrides)), 400, 'validation');
        expect(Object.keys(error.fields ?? {})).toEqual(Object.keys(overrides));
      }
    });

    it('words the problem in the language asked for', async () => {
      const res = await post(partner, entry({ kode_id: 'short' }), crypto.randomUUID(), { 'accept-language': 'en' });
      expect(expectError(res, 400, 'validation').fields?.kode_id).toBe('Please enter a valid KODE ID');
      const ar = await post(partner, entry({ kode_id: 'short' }), crypto.randomUUID(), { 'accept-language': 'ar' });
      expect(expectError(ar, 400, 'validation').fields?.kode_id).toBe('يرجى إدخال معرّف KODE ID صالح');
    });

    it('lists every wrong field at once', async () => {
      const res = await post(partner, { kode_id: 'x', odometer: 0, repair_type_id: '', consented: false });
      const error = expectError(res, 400, 'validation');
      expect(Object.keys(error.fields ?? {}).sort()).toEqual([
        'consented',
        'kode_id',
        'odometer',
        'recorded_at',
        'repair_type_id',
      ]);
    });

    it('answers 404 vehicle_not_found for an unknown vehicle', async () => {
      const res = await post(partner, entry({ kode_id: 'ZZZZZZZZZZ' }));
      const error = expectError(res, 404, 'not_found', 'vehicle_not_found');
      expect(error.message).toBe('Aucun véhicule ne correspond à ce KODE ID');
    });

    it('answers 400 with a repair_type_id field for an unknown repair type', async () => {
      const res = await post(partner, entry({ repair_type_id: 'teleportation' }));
      const error = expectError(res, 400, 'validation', 'repair_type_not_found');
      expect(error.fields).toEqual({ repair_type_id: "Ce type de panne n'existe pas" });
    });

    it('stores nothing for a refused entry', async () => {
      const p = await createPartner(t.app);
      await post(p, entry({ kode_id: 'ZZZZZZZZZZ' }));
      await post(p, entry({ repair_type_id: 'teleportation' }));
      await post(p, entry({ odometer: 0 }));
      expect(await rowsOf(p)).toHaveLength(0);
    });
  });

  describe('recorded_at window', () => {
    it('accepts up to 5 minutes in the future and refuses more', async () => {
      const now = t.clock.now().getTime();
      const ok = await post(partner, entry({ recorded_at: new Date(now + 4 * MINUTE).toISOString() }));
      expect(ok.statusCode).toBe(201);
      const res = await post(partner, entry({ recorded_at: new Date(now + 6 * MINUTE).toISOString() }));
      const error = expectError(res, 400, 'validation', 'recorded_at_out_of_range');
      expect(error.fields).toEqual({ recorded_at: 'La date de saisie est trop ancienne ou dans le futur' });
    });

    it(`accepts up to ${RECORDED_AT_MAX_AGE_MS / DAY} days old and refuses older`, async () => {
      expect(RECORDED_AT_MAX_AGE_MS).toBe(30 * DAY);
      expect((await post(partner, entry({ recorded_at: ago(RECORDED_AT_MAX_AGE_MS - MINUTE) }))).statusCode).toBe(201);
      expectError(
        await post(partner, entry({ recorded_at: ago(RECORDED_AT_MAX_AGE_MS + MINUTE) })),
        400,
        'validation',
        'recorded_at_out_of_range',
      );
    });

    it('judges the window by the server clock', async () => {
      const recordedAt = ago(0);
      t.clock.advance(-10 * MINUTE);
      try {
        // Ten minutes ahead of the server's now: refused.
        expectError(
          await post(partner, entry({ recorded_at: recordedAt })),
          400,
          'validation',
          'recorded_at_out_of_range',
        );
      } finally {
        t.clock.reset();
      }
      expect((await post(partner, entry({ recorded_at: recordedAt }))).statusCode).toBe(201);
    });
  });

  describe('odometer_anomaly', () => {
    const anomalyOf = async (p: TestPartner, body: Record<string, unknown>) => {
      const res = await post(p, entry(body));
      expect(res.statusCode).toBe(201);
      return res.json<ApiSuccess<RepairRecord>>().data.odometer_anomaly;
    };

    it('is false for a first reading and for a normal increase', async () => {
      const p = await createPartner(t.app);
      expect(await anomalyOf(p, { kode_id: 'T4GUH2M9UP', odometer: 100_000, recorded_at: ago(10 * DAY) })).toBe(false);
      expect(await anomalyOf(p, { kode_id: 'T4GUH2M9UP', odometer: 101_000, recorded_at: ago(9 * DAY) })).toBe(false);
      expect(await anomalyOf(p, { kode_id: 'T4GUH2M9UP', odometer: 101_000, recorded_at: ago(8 * DAY) })).toBe(false);
    });

    it('marks a reading lower than the previous one, and stores it anyway', async () => {
      const p = await createPartner(t.app);
      expect(await anomalyOf(p, { kode_id: 'TEQUFH2RP7', odometer: 100_000, recorded_at: ago(10 * DAY) })).toBe(false);
      // A dip under 100 km is tolerated (contract/readings.ts).
      expect(await anomalyOf(p, { kode_id: 'TEQUFH2RP7', odometer: 99_901, recorded_at: ago(6 * DAY) })).toBe(false);
      expect(await anomalyOf(p, { kode_id: 'TEQUFH2RP7', odometer: 99_801, recorded_at: ago(5 * DAY) })).toBe(true);
      expect(await rowsOf(p)).toHaveLength(3);
    });

    it('compares with any partner’s readings', async () => {
      const a = await createPartner(t.app);
      const b = await createPartner(t.app);
      expect(await anomalyOf(a, { kode_id: 'B8RXR7BP4R', odometer: 60_000, recorded_at: ago(3 * DAY) })).toBe(false);
      expect(await anomalyOf(b, { kode_id: 'B8RXR7BP4R', odometer: 40_000, recorded_at: ago(2 * DAY) })).toBe(true);
    });

    it(`marks a reading higher than ${ODOMETER_MAX_KM_PER_DAY} km a day since the previous one`, async () => {
      const p = await createPartner(t.app);
      const vehicle = 'UAWT88PAN7';
      expect(await anomalyOf(p, { kode_id: vehicle, odometer: 50_000, recorded_at: ago(10 * DAY) })).toBe(false);
      // Exactly the limit over two days: plausible.
      const twoDays = 50_000 + 2 * ODOMETER_MAX_KM_PER_DAY;
      expect(await anomalyOf(p, { kode_id: vehicle, odometer: twoDays, recorded_at: ago(8 * DAY) })).toBe(false);
      // One kilometre more than a day allows: implausible.
      const tooFar = twoDays + ODOMETER_MAX_KM_PER_DAY + 1;
      expect(await anomalyOf(p, { kode_id: vehicle, odometer: tooFar, recorded_at: ago(7 * DAY) })).toBe(true);
      // Less than a day later counts as one day.
      const sameDay = tooFar + ODOMETER_MAX_KM_PER_DAY;
      expect(await anomalyOf(p, { kode_id: vehicle, odometer: sameDay, recorded_at: ago(7 * DAY - 60 * MINUTE) })).toBe(
        false,
      );
      expect(
        await anomalyOf(p, {
          kode_id: vehicle,
          odometer: sameDay + ODOMETER_MAX_KM_PER_DAY + 1,
          recorded_at: ago(7 * DAY - 59 * MINUTE),
        }),
      ).toBe(true);
    });

    it('compares a late entry only with readings recorded before it', async () => {
      const p = await createPartner(t.app);
      expect(await anomalyOf(p, { kode_id: 'Q8Q2A9XPGC', odometer: 80_000, recorded_at: ago(2 * DAY) })).toBe(false);
      // Synced late but recorded earlier, with a lower reading: consistent with the later one.
      expect(await anomalyOf(p, { kode_id: 'Q8Q2A9XPGC', odometer: 79_000, recorded_at: ago(3 * DAY) })).toBe(false);
    });
  });

  it('answers 401 without a token, with a forged one, and after the session is revoked', async () => {
    const none = await call(t.app, 'POST', '/api/partner/repairs', {
      body: entry(),
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expectError(none, 401, 'auth', 'unauthorized');
    const forged = await call(t.app, 'POST', '/api/partner/repairs', {
      token: 'v4.local.forged',
      body: entry(),
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expectError(forged, 401, 'auth', 'session_expired');
    const p = await createPartner(t.app);
    await t.app.db.update(sessions).set({ revoked_at: t.clock.now() }).where(eq(sessions.user_id, p.id));
    expectError(await post(p, entry()), 401, 'auth', 'session_revoked');
    expect(await rowsOf(p)).toHaveLength(0);
  });

  it('answers 401 once the access token has expired', async () => {
    const p = await createPartner(t.app);
    t.clock.advance(16 * MINUTE);
    try {
      expectError(await post(p, entry()), 401, 'auth', 'session_expired');
    } finally {
      t.clock.reset();
    }
  });
});

describe('GET /api/partner/repairs', () => {
  let p: TestPartner;
  /** Five repairs an hour apart, oldest first, and two sharing one recorded_at. */
  const stored: RepairRecord[] = [];
  beforeAll(async () => {
    p = await createPartner(t.app);
    const vehicles = ['7CBHHHRYDN', '7BQA4JJ2V3', 'MP97RDXATY', '6TANY3MFTJ', '7Y5ELYNYL3'];
    for (const [index, kodeId] of vehicles.entries()) {
      const res = await post(
        p,
        entry({
          kode_id: kodeId,
          odometer: 10_000 + index,
          repair_type_id: index % 2 === 0 ? 'oil_change' : 'general_service',
          note: `note ${index}`,
          recorded_at: ago((10 - index) * 60 * MINUTE),
        }),
      );
      expect(res.statusCode).toBe(201);
      stored.push(res.json<ApiSuccess<RepairRecord>>().data);
    }
  });

  const list = (query = '', partner: TestPartner = p) =>
    call(t.app, 'GET', `/api/partner/repairs${query}`, { token: partner.token });

  it('lists the caller’s repairs newest first, with vehicle and repair type', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json<ApiSuccess<RepairRecord[]>>();
    expect(body.code).toBe(200);
    expect(body.status).toBe('success');
    expect(body.data).toEqual([...stored].reverse());
    expect(body.data[0]).toEqual({
      id: stored[4]?.id,
      vehicle: {
        kode_id: '7Y5ELYNYL3',
        vin: expect.any(String),
        brand: expect.any(String),
        name: expect.any(String),
        year: expect.any(Number),
      },
      repair_type: { id: 'oil_change', name: 'Vidange', name_ar: 'تغيير الزيت', name_en: 'Oil change' },
      odometer: 10_004,
      note: 'note 4',
      verdict: 'no_verdict',
      reasons: [],
      odometer_anomaly: false,
      superseded_by: null,
      corrects: null,
      correction_reason: null,
      recorded_at: stored[4]?.recorded_at,
      created_at: expect.any(String),
      correctable_until: stored[4]?.correctable_until,
      photo: null,
      idempotency_key: stored[4]?.idempotency_key,
    });
  });

  it('pages with limit and an exclusive before cursor on recorded_at', async () => {
    const first = (await list('?limit=2')).json<ApiSuccess<RepairRecord[]>>().data;
    expect(first.map((r) => r.id)).toEqual([stored[4]?.id, stored[3]?.id]);
    const cursor = encodeURIComponent(first[1]?.recorded_at ?? '');
    const second = (await list(`?limit=2&before=${cursor}`)).json<ApiSuccess<RepairRecord[]>>().data;
    expect(second.map((r) => r.id)).toEqual([stored[2]?.id, stored[1]?.id]);
    const third = (await list(`?limit=2&before=${encodeURIComponent(second[1]?.recorded_at ?? '')}`)).json<
      ApiSuccess<RepairRecord[]>
    >().data;
    expect(third.map((r) => r.id)).toEqual([stored[0]?.id]);
    const none = await list(`?before=${encodeURIComponent(third[0]?.recorded_at ?? '')}`);
    expect(none.json<ApiSuccess<RepairRecord[]>>().data).toEqual([]);
  });

  it('accepts a before cursor with an offset', async () => {
    const at = new Date(stored[2]?.recorded_at ?? '');
    const withOffset = `${new Date(at.getTime() + 60 * MINUTE).toISOString().slice(0, 19)}+01:00`;
    const res = await list(`?before=${encodeURIComponent(withOffset)}`);
    expect(res.json<ApiSuccess<RepairRecord[]>>().data.map((r) => r.id)).toEqual([stored[1]?.id, stored[0]?.id]);
  });

  it('returns the newest 100 by default and at most 500', async () => {
    const many = await createPartner(t.app);
    const base = t.clock.now().getTime() - DAY;
    await t.app.db.insert(repairs).values(
      Array.from({ length: 120 }, (_, i) => ({
        partner_id: many.id,
        kode_id: 'AG7BA8GYFC',
        repair_type_id: 'mileage_reading',
        odometer: 1000 + i,
        recorded_at: new Date(base + i * MINUTE),
        idempotency_key: crypto.randomUUID(),
        request_hash: 'seeded',
      })),
    );
    const byDefault = (await list('', many)).json<ApiSuccess<RepairRecord[]>>().data;
    expect(byDefault).toHaveLength(100);
    expect(byDefault[0]?.odometer).toBe(1119);
    expect(byDefault[99]?.odometer).toBe(1020);
    expect((await list('?limit=500', many)).json<ApiSuccess<RepairRecord[]>>().data).toHaveLength(120);
    expect((await list('?limit=1', many)).json<ApiSuccess<RepairRecord[]>>().data).toHaveLength(1);
  });

  it('pages through repairs sharing a recorded_at without skipping one (before_id breaks the tie)', async () => {
    const same = await createPartner(t.app);
    const at = new Date(t.clock.now().getTime() - DAY);
    await t.app.db.insert(repairs).values(
      [1, 2, 3].map((n) => ({
        partner_id: same.id,
        kode_id: 'AG7BA8GYFC',
        repair_type_id: 'mileage_reading',
        odometer: 1000 + n,
        recorded_at: at,
        idempotency_key: crypto.randomUUID(),
        request_hash: 'seeded',
      })),
    );
    const page = async (query: string) => (await list(query, same)).json<ApiSuccess<RepairRecord[]>>().data;
    const first = await page('?limit=2');
    const last = first[1];
    const second = await page(`?limit=2&before=${encodeURIComponent(last?.recorded_at ?? '')}&before_id=${last?.id}`);
    expect(second).toHaveLength(1);
    expect(new Set([...first, ...second].map((r) => r.odometer))).toEqual(new Set([1001, 1002, 1003]));
    const bad = await list(`?before=${encodeURIComponent(at.toISOString())}&before_id=not-a-uuid`, same);
    expect(bad.statusCode).toBe(400);
  });

  it('orders repairs sharing a recorded_at by id, newest id first', async () => {
    const same = await createPartner(t.app);
    const at = ago(30 * MINUTE);
    for (const odometer of [1, 2, 3]) {
      expect(
        (await post(same, entry({ kode_id: 'H8Z3RFVCAU', odometer: 500 + odometer, recorded_at: at }))).statusCode,
      ).toBe(201);
    }
    const ids = (await list('', same)).json<ApiSuccess<RepairRecord[]>>().data.map((r) => r.id);
    expect(ids).toHaveLength(3);
    expect(ids).toEqual([...ids].sort().reverse());
  });

  it.each([
    ['limit=0'],
    ['limit=501'],
    ['limit=abc'],
    ['limit=1.5'],
    ['limit=-1'],
    ['limit=1&limit=2'],
    ['before=yesterday'],
    ['before=2026-13-01T00:00:00Z'],
    ['before=2026-01-01'],
  ])('answers 400 validation for ?%s', async (query) => {
    const res = await list(`?${query}`);
    expectError(res, 400, 'validation', 'invalid_request');
  });

  it.each([
    ['0000-01-01T00:00:00Z'],
    ['9999-12-31T23:59:59-23:59'],
    ['1999-12-31T23:59:59.999Z'],
    ['2000-01-01T00:30:00+01:00'],
    ['2100-01-01T00:00:00Z'],
  ])('answers 400 date_out_of_range for ?before=%s, in the envelope, worded', async (before) => {
    const res = await list(`?before=${encodeURIComponent(before)}`);
    const error = expectError(res, 400, 'validation', 'date_out_of_range');
    expect(error).toMatchObject({
      message: 'La date doit être comprise entre 2000 et 2099',
      fields: { before: 'La date doit être comprise entre 2000 et 2099' },
    });
  });

  it.each([['2000-01-01T00:00:00Z'], ['2099-12-31T23:59:59.999Z'], ['2100-01-01T00:59:59+01:00']])(
    'accepts ?before=%s at the edge of the dates it takes',
    async (before) => {
      const res = await list(`?before=${encodeURIComponent(before)}`);
      expect(res.statusCode, res.body).toBe(200);
    },
  );

  it('answers 401 without a token', async () => {
    expectError(await call(t.app, 'GET', '/api/partner/repairs'), 401, 'auth', 'unauthorized');
  });
});
