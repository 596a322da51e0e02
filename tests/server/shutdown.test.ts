/**
 * Graceful shutdown: SIGTERM in the middle of a burst of writes. Requests in flight finish, the
 * process exits cleanly, and after a restart on the same data every acknowledged repair is there
 * and the database opens without complaint. Runs on the embedded database (TEST_DB=pglite, the data
 * directory must not be corrupted) and on the PostgreSQL server.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../support/processes';
import { createPostgresDatabase } from '../support/test-app';

const BURST = 60;

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'garage@demo.dz', password: 'demo-garage-2026', remember_me: false }),
  });
  const body = (await res.json()) as { data: { access_token: string } };
  return body.data.access_token;
}

function postRepair(url: string, token: string, odometer: number) {
  return fetch(`${url}/api/partner/repairs`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify({
      kode_id: 'KODE000002',
      odometer,
      repair_type_id: 'mileage_reading',
      consented: true,
      recorded_at: new Date().toISOString(),
    }),
  }).then(
    async (res) => {
      const body = (await res.json()) as { code: number; data?: { id: string }; error?: { reason: string } };
      return { status: res.status, body, id: res.status === 201 ? (body.data?.id ?? null) : null };
    },
    () => ({ status: 0, body: null, id: null }),
  );
}

describe('graceful shutdown', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('finishes requests in flight, exits 0, and loses no acknowledged write', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-shutdown-'));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = { DATA_DIR: dataDir, NODE_ENV: 'development' };
    if (process.env.TEST_DB === 'postgres') {
      const database = await createPostgresDatabase();
      cleanups.push(() => database.drop());
      env.DATABASE_URL = database.url;
    }

    const first = await startServer(env);
    cleanups.push(async () => void first.child.kill('SIGKILL'));
    const token = await signIn(first.url);
    const burst = Array.from({ length: BURST }, (_, index) => postRepair(first.url, token, 10_000 + index));
    await new Promise((resolve) => setTimeout(resolve, 30));
    first.child.kill('SIGTERM');
    const results = await Promise.all(burst);
    expect((await first.finished).code).toBe(0);

    // Each request was either answered in full or refused cleanly (503 while closing, or not connected).
    for (const result of results) expect([201, 503, 0]).toContain(result.status);
    // A 503 is the envelope like any other answer.
    for (const result of results.filter(({ status }) => status === 503)) {
      expect(result.body).toMatchObject({ code: 503, status: 'error', error: { reason: 'unavailable' } });
    }
    const acknowledged = results.flatMap((result) => (result.id ? [result.id] : []));
    expect(acknowledged.length).toBeGreaterThan(0);

    const second = await startServer(env);
    cleanups.push(async () => void second.child.kill('SIGKILL'));
    const list = await fetch(`${second.url}/api/partner/repairs?limit=500`, {
      headers: { authorization: `Bearer ${await signIn(second.url)}` },
    });
    expect(list.status).toBe(200);
    const stored = new Set(((await list.json()) as { data: Array<{ id: string }> }).data.map((repair) => repair.id));
    for (const id of acknowledged) expect(stored.has(id)).toBe(true);
    expect(await second.stop()).toBe(0);
  });
});
