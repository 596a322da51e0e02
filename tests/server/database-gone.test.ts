/**
 * With the database gone (dropped, stopped or closed under a running server), every call that needs it
 * answers 503 `unavailable` with Retry-After, as the ready probe says, never 500 `internal`, and the
 * log says so once rather than with an unhandled error per call (docs/API.md#error-types).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../contract';
import { isDatabaseUnavailable } from '../../server/db/unavailable';
import { createPartner, type TestPartner } from '../support/partners';
import { call, createTestApp, POSTGRES_ADMIN_URL, type TestApp } from '../support/test-app';

/** Takes the app's database away: dropped from the PostgreSQL server, or the embedded one closed. */
async function takeDatabaseAway(t: TestApp): Promise<void> {
  if (t.kind === 'pglite') {
    await t.app.database.close();
    return;
  }
  const name = new URL(t.config.databaseUrl!).pathname.slice(1);
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`drop database ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

describe('a server whose database is gone', () => {
  let t: TestApp;
  let partner: TestPartner;
  const logs: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: 'warn' }, logStream: { write: (line) => logs.push(line) } });
    partner = await createPartner(t.app);
    expect((await call(t.app, 'GET', '/api/partner/statistics', { token: partner.token })).statusCode).toBe(200);
    await takeDatabaseAway(t);
  });
  afterAll(async () => {
    // Closing an embedded database twice is harmless; the dropped one is dropped again if it exists.
    await t.close().catch(() => undefined);
  });

  it('answers 503 unavailable with Retry-After to every call that needs it, and logs no unhandled error', async () => {
    const calls = [
      () => call(t.app, 'GET', '/api/partner/statistics', { token: partner.token }),
      () => call(t.app, 'GET', '/api/partner/vehicles/KODE000001', { token: partner.token }),
      () => call(t.app, 'GET', '/api/public/settings'),
      () =>
        call(t.app, 'POST', '/api/auth/login', {
          body: { email: partner.email, password: partner.password, remember_me: false },
        }),
    ];
    for (const makeCall of calls) {
      const res = await makeCall();
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json<ApiFailure>()).toMatchObject({ code: 503, status: 'error', error: { reason: 'unavailable' } });
    }
    expect(logs.some((line) => line.includes('unhandled error'))).toBe(false);
    expect(logs.filter((line) => line.includes('database unavailable'))).toHaveLength(1);
  });

  it('tells an unreachable database from a statement that failed', () => {
    const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('terminating'), { code: '57P01' })))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('duplicate key'), { code: '23505' })))).toBe(false);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('syntax'), { code: '42601' })))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
  });
});
