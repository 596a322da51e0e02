/**
 * Property-based: whatever JSON a client throws at a POST or PATCH route, the server answers in the
 * envelope with a status below 500 (docs/API.md#the-envelope). Bounded: 100 runs per route.
 */
import crypto from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TYPES } from '../../contract';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../support/test-app';
import { createPartner, type TestPartner } from '../support/partners';

const RUNS = 100;

/** Any JSON at all, plus strings long enough to cross the 64 KB body limit now and then. */
const hugeString = fc.constantFrom(1_000, 20_000, 70_000).map((length) => 'é'.repeat(length));
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 300, unit: 'grapheme' }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)) },
  { weight: 1, arbitrary: hugeString },
);

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/**
 * ISO 8601 date-times of every shape the contract's format lets through and some it does not: years
 * 0000 to 9999 (the edges of the accepted 2000–2099 often), offsets up to ±23:59, fractions of up to 9
 * digits, days past a month's end, and the extended years (+275760) of toISOString far from 1970. The
 * database must never see one it cannot store (docs/API.md#dates).
 */
const oddTimestamp: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({
      year: fc.oneof(
        fc.constantFrom(0, 1, 999, 1969, 1970, 1999, 2000, 2099, 2100, 9999),
        fc.integer({ min: 0, max: 9999 }),
      ),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 31 }),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      second: fc.integer({ min: 0, max: 59 }),
      fraction: fc.option(fc.stringMatching(/^\.\d{1,9}$/), { nil: '' }),
      offset: fc.oneof(
        fc.constant('Z'),
        fc
          .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
          .map(([sign, hours, minutes]) => `${sign}${pad(hours, 2)}:${pad(minutes, 2)}`),
      ),
    })
    .map(
      (at) =>
        `${pad(at.year, 4)}-${pad(at.month, 2)}-${pad(at.day, 2)}T${pad(at.hour, 2)}:${pad(at.minute, 2)}:${pad(at.second, 2)}${at.fraction}${at.offset}`,
    ),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
);

/** Values of about the right shape for each field, so that many runs get past the first check. */
const plausible = {
  email: fc.oneof(fc.emailAddress(), fc.constant('garage@demo.dz'), fc.string({ maxLength: 40 })),
  password: fc.string({ minLength: 0, maxLength: 140 }),
  remember_me: fc.boolean(),
  full_name: fc.string({ maxLength: 130 }),
  phone_number: fc.oneof(fc.stringMatching(/^0\d{8,10}$/), fc.string({ maxLength: 14 })),
  location: fc.record(
    {
      latitude: fc.double({ min: -100, max: 100, noNaN: true }),
      longitude: fc.double({ min: -200, max: 200, noNaN: true }),
      address: fc.option(fc.string({ maxLength: 60 })),
    },
    { requiredKeys: ['latitude', 'longitude'] },
  ),
  privacy_conditions: fc.boolean(),
  token: fc.oneof(
    fc.string({ maxLength: 60 }).map((rest) => `v4.local.${rest}`),
    fc.string({ maxLength: 60 }),
  ),
  new_password: fc.string({ maxLength: 140 }),
  confirm_password: fc.string({ maxLength: 140 }),
  current_password: fc.string({ maxLength: 140 }),
  kode_id: fc.oneof(fc.constantFrom('KODE000001', 'kode000002', 'ZZZZZZZZZZ'), fc.stringMatching(/^[A-Z0-9]{8,11}$/)),
  odometer: fc.oneof(fc.integer({ min: -10, max: 2_100_000 }), fc.double()),
  repair_type_id: fc.oneof(fc.constantFrom('oil_change', 'brakes', 'nope', ''), fc.string({ maxLength: 70 })),
  note: fc.string({ maxLength: 1100 }),
  consented: fc.oneof(fc.boolean(), fc.constant('true')),
  vin: fc.option(fc.string({ maxLength: 40 })),
  brand: fc.option(fc.string({ maxLength: 90 })),
  model: fc.option(fc.string({ maxLength: 130 })),
  year: fc.oneof(fc.integer({ min: 1900, max: 2100 }), fc.string({ maxLength: 6 }), fc.constant(null)),
  recorded_at: fc.oneof(
    fc
      .date({ min: new Date('1999-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString()),
    fc.integer({ min: -200, max: 10 }).map((minutes) => new Date(Date.now() + minutes * 60_000).toISOString()),
    fc.string({ maxLength: 30 }),
    oddTimestamp,
  ),
} satisfies Record<string, fc.Arbitrary<unknown>>;
type Field = keyof typeof plausible;

/** An object with the route's keys (some missing), each of the right shape or of any type at all. */
function shaped(fields: Field[]): fc.Arbitrary<unknown> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of fields) {
    model[field] = fc.oneof({ weight: 3, arbitrary: plausible[field] }, { weight: 1, arbitrary: anyValue });
  }
  return fc.record(model, { requiredKeys: [] });
}

/** A valid body with each field spoiled now and then, so that a good share of runs reach the database. */
function nearlyValid(valid: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  return fc.record(
    Object.fromEntries(
      Object.entries(valid).map(([field, arbitrary]) => [
        field,
        fc.oneof({ weight: 5, arbitrary }, { weight: 1, arbitrary: anyValue }),
      ]),
    ),
  );
}

function bodies(fields: Field[], valid?: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 2, arbitrary: anyValue },
    { weight: 5, arbitrary: shaped(fields) },
    // The right keys with wrong-typed values only.
    { weight: 2, arbitrary: fc.record(Object.fromEntries(fields.map((field) => [field, anyValue]))) },
    ...(valid ? [{ weight: 5, arbitrary: nearlyValid(valid) }] : []),
  );
}

const validRepair = {
  kode_id: fc.constantFrom('KODE000001', 'kode000002', 'KODE000003', 'V3SMJ5P6FX'),
  odometer: fc.integer({ min: 1, max: 2_000_000 }),
  repair_type_id: fc.constantFrom('oil_change', 'mileage_reading', 'general_service'),
  note: fc.string({ maxLength: 200 }),
  consented: fc.constant(true),
  // Within the accepted window of the real clock (the fuzz app's clock is never moved).
  recorded_at: fc
    .integer({ min: 1, max: 80 * 24 * 60 })
    .map((minutes) => new Date(Date.now() - minutes * 60_000).toISOString()),
};

interface RouteUnderTest {
  method: 'POST' | 'PATCH';
  url: string;
  fields: Field[];
  /** Which partner's token to send: logout gets its own partner, so it cannot sign out the others. */
  auth?: 'shared' | 'logout';
  idempotencyKey?: boolean;
  valid?: Record<string, fc.Arbitrary<unknown>>;
}

const ROUTES: RouteUnderTest[] = [
  { method: 'POST', url: '/api/auth/login', fields: ['email', 'password', 'remember_me'] },
  {
    method: 'POST',
    url: '/api/auth/register/partner',
    fields: ['email', 'full_name', 'location', 'password', 'phone_number', 'privacy_conditions'],
  },
  { method: 'POST', url: '/api/auth/refresh', fields: [] },
  { method: 'POST', url: '/api/auth/logout/partner', fields: [], auth: 'logout' },
  { method: 'POST', url: '/api/auth/forgot-password', fields: ['email'] },
  { method: 'POST', url: '/api/auth/reset-password', fields: ['new_password', 'confirm_password', 'token'] },
  {
    method: 'POST',
    url: '/api/partner/repairs',
    fields: [
      'kode_id',
      'odometer',
      'repair_type_id',
      'note',
      'consented',
      'vin',
      'brand',
      'model',
      'year',
      'recorded_at',
    ],
    auth: 'shared',
    idempotencyKey: true,
    valid: validRepair,
  },
  {
    method: 'PATCH',
    url: '/api/partner/profile',
    fields: ['full_name', 'email', 'phone_number', 'location', 'current_password', 'new_password'],
    auth: 'shared',
  },
];

function expectEnvelope(res: LightMyRequestResponse) {
  expect(res.statusCode).toBeGreaterThanOrEqual(200);
  expect(res.statusCode).toBeLessThan(500);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json<Record<string, unknown>>();
  expect(body.code).toBe(res.statusCode);
  if (res.statusCode < 400) {
    expect(body.status).toBe('success');
    return;
  }
  expect(body.status).toBe('error');
  const error = body.error as { type: string; message: unknown };
  expect(ERROR_TYPES).toContain(error.type);
  expect(typeof error.message).toBe('string');
  expect(res.body).not.toMatch(/\bat .+:\d+:\d+|node_modules|FST_/);
}

describe('fuzzing every POST and PATCH route', () => {
  let t: TestApp;
  let shared: TestPartner;
  let forLogout: TestPartner;
  let ipCounter = 0;
  beforeAll(async () => {
    t = await createTestApp();
    shared = await createPartner(t.app);
    forLogout = await createPartner(t.app);
  });
  afterAll(() => t.close());

  /** A new client address for every request, so the per-IP limits of the auth routes rarely answer 429. */
  const nextAddress = () => {
    ipCounter += 1;
    return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
  };

  it.each(ROUTES)('$method $url answers every body in the envelope, never with a 5xx', async (route) => {
    const statuses = new Map<number, number>();
    const idempotency = fc.oneof(
      { weight: 8, arbitrary: fc.uuid().map((key): string | undefined => key) },
      { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((key): string | undefined => key) },
      { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
    );
    await fc.assert(
      fc.asyncProperty(bodies(route.fields, route.valid), idempotency, async (body, key) => {
        const headers: Record<string, string> = { 'content-type': 'application/json', 'x-origin': TEST_ORIGIN };
        const partner = route.auth === 'shared' ? shared : route.auth === 'logout' ? forLogout : null;
        if (partner) headers.authorization = `Bearer ${partner.token}`;
        if (route.idempotencyKey && key !== undefined) headers['idempotency-key'] = key;
        const res = await t.app.inject({
          method: route.method,
          url: route.url,
          headers,
          payload: JSON.stringify(body) ?? 'null',
          remoteAddress: nextAddress(),
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        expectEnvelope(res);
      }),
      { numRuns: RUNS },
    );
    // The fuzzing is worth something only if most runs reach validation rather than a rate limit.
    expect(statuses.get(429) ?? 0).toBeLessThan(RUNS / 2);
  });

  it('GET /api/partner/repairs answers every odd before cursor in the envelope, never with a 5xx', async () => {
    const statuses = new Map<number, number>();
    // Half the cursors are in the years the API accepts, so some surely reach the database: the odd ones
    // alone do so about one time in twenty, and a hundred of them sometimes never did.
    const inRange = fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
      .map((date) => date.toISOString());
    await fc.assert(
      fc.asyncProperty(fc.oneof(oddTimestamp, inRange), async (before) => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/partner/repairs?limit=1&before=${encodeURIComponent(before)}`,
          headers: { authorization: `Bearer ${shared.token}` },
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        expectEnvelope(res);
        // Either a page, or a refusal of the cursor as malformed or outside the years 2000 to 2099.
        expect([200, 400]).toContain(res.statusCode);
        if (res.statusCode === 400) {
          expect(['invalid_request', 'date_out_of_range']).toContain(
            res.json<{ error: { reason: string } }>().error.reason,
          );
        }
      }),
      { numRuns: RUNS },
    );
    // Worth something only if some cursors reach the database.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
  });

  it('answers a valid repair sent in a fuzzed order of keys the same way', async () => {
    const base = {
      kode_id: 'KODE000001',
      odometer: 1000,
      repair_type_id: 'oil_change',
      consented: true,
      recorded_at: new Date(t.clock.now().getTime() - 60_000).toISOString(),
    };
    const key = crypto.randomUUID();
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(Object.keys(base), { minLength: 5, maxLength: 5 }), async (order) => {
        const body = Object.fromEntries(order.map((field) => [field, base[field as keyof typeof base]]));
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/partner/repairs',
          headers: { authorization: `Bearer ${shared.token}`, 'idempotency-key': key },
          payload: body,
        });
        // The canonical body hash ignores key order: every replay is the same request.
        expect([200, 201]).toContain(res.statusCode);
      }),
      { numRuns: 20 },
    );
  });
});
