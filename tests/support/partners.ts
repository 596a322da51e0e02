/**
 * Creates a partner straight in the database with a live session and an access token, for tests
 * of partner routes that should not depend on the sign-in flow; and records repairs for one.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ApiSuccess, RepairRecord } from '../../contract';
import { partners, sessions, users } from '../../server/db/schema';
import { hashPassword } from '../../server/services/passwords';
import { call, createTestApp, type TestApp, type TestAppOptions } from './test-app';

export interface TestPartner {
  id: string;
  email: string;
  password: string;
  token: string;
}

export async function createPartner(app: FastifyInstance, overrides: { email?: string; password?: string } = {}) {
  const email = overrides.email ?? `partner-${crypto.randomBytes(4).toString('hex')}@example.dz`;
  const password = overrides.password ?? 'correct-horse-battery';
  const [user] = await app.db
    .insert(users)
    .values({ email, full_name: 'Garage Test', password_hash: await hashPassword(password) })
    .returning({ id: users.id });
  if (!user) throw new Error('user not created');
  await app.db
    .insert(partners)
    .values({ user_id: user.id, phone_number: '0555123456', latitude: 36.7, longitude: 3.05 });
  const familyId = crypto.randomUUID();
  await app.db.insert(sessions).values({
    family_id: familyId,
    user_id: user.id,
    token_hash: crypto.randomBytes(32).toString('hex'),
    expires_at: new Date(app.clock().getTime() + 24 * 3600 * 1000),
  });
  const token = await app.tokens.issueAccess({ sub: user.id, sid: familyId });
  return { id: user.id, email, password, token } satisfies TestPartner;
}

/** Records a repair for `partner` through POST /api/partner/repairs under a new key; 201 expected. */
export async function recordRepair(
  app: FastifyInstance,
  partner: TestPartner,
  repair: { kodeId: string; odometer: number; recordedAt: Date; repairTypeId: string },
): Promise<RepairRecord> {
  const res = await call(app, 'POST', '/api/partner/repairs', {
    token: partner.token,
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: {
      kode_id: repair.kodeId,
      odometer: repair.odometer,
      repair_type_id: repair.repairTypeId,
      consented: true,
      recorded_at: repair.recordedAt.toISOString(),
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json<ApiSuccess<RepairRecord>>().data;
}

/**
 * The usual fixture of a test file: one app (with `options`) and one partner in it, made before its
 * tests and closed after them. Read `t` and `partner` inside the tests, once beforeAll has run.
 */
export function useAppWithPartner(options: TestAppOptions = {}): { t: TestApp; partner: TestPartner } {
  const fixture = {} as { t: TestApp; partner: TestPartner };
  beforeAll(async () => {
    fixture.t = await createTestApp(options);
    fixture.partner = await createPartner(fixture.t.app);
  });
  afterAll(() => fixture.t?.close());
  return fixture;
}
