/**
 * The client parses every success answer with its call's schema (contract/endpoints.ts) before anything
 * of it is used: a malformed one becomes a failure the outbox retries (docs/API.md#how-the-pwa-reads-answers),
 * never a record stored on the tablet; fields the contract does not name are dropped.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RepairRecord, Vehicle } from '../../../../contract';
import { loadAnswerSchemas } from '../../../../src/lib/api/answer-schemas';
import { apiCall, callPath, type ApiCallKey } from '../../../../src/lib/api/call';
import {
  configureAnswerSchemas,
  configureApiClient,
  MALFORMED_ANSWER_CODE,
  type ApiResponse,
} from '../../../../src/lib/api/client';
import { postRepair } from '../../../../src/lib/api/post-repair';
import { classifySend, deliveryOf } from '../../../../src/lib/entries/classify';
import { SyncEngine } from '../../../../src/lib/entries/engine';
import { repairRecord } from '../../../support/records';
import {
  FakeSession,
  freshDatabase,
  inserter,
  ManualScheduler,
  memoryLock,
  repair,
  sequentialUuids,
} from '../entries/support';

const KEY = '00000000-0000-4000-8000-000000000001';

const stored: RepairRecord = repairRecord({
  id: '00000000-0000-4000-8000-0000000000aa',
  vehicle: { kode_id: 'KODE000001', vin: 'VF1RFB00000000001', brand: 'Renault', name: 'Clio', year: 2019 },
  repair_type: { id: 'oil', name: 'Vidange', name_ar: null, name_en: null },
  odometer: 1000,
  recorded_at: '2025-03-01T08:00:00.000Z',
  idempotency_key: KEY,
  correctable_until: '2025-03-08T08:00:00.000Z',
});

function answer(status: number, data: unknown): Response {
  return new Response(JSON.stringify({ code: status, status: 'success', data }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const MALFORMED = {
  code: MALFORMED_ANSWER_CODE,
  status: 'error',
  error: { type: 'other', message: '' },
};

describe('answers checked against the contract', () => {
  const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();

  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    configureAnswerSchemas(loadAnswerSchemas);
    configureApiClient({
      accessToken: () => 'token',
      language: () => 'fr',
      refresh: async () => false,
      beforeRequest: async () => undefined,
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('hands over a record that matches its schema', async () => {
    fetchMock.mockResolvedValue(answer(201, stored));
    expect(await postRepair(KEY, { ...repair('KODE000001', 1000), recorded_at: stored.recorded_at })).toEqual({
      code: 201,
      status: 'success',
      data: stored,
    });
  });

  it('drops the fields the contract does not name', async () => {
    fetchMock.mockResolvedValue(
      answer(200, { ...stored, partner_id: 'someone', vehicle: { ...stored.vehicle, owner: 'x' } }),
    );
    const result = await apiCall('POST partner /repairs', { body: {} });
    expect(result).toEqual({ code: 200, status: 'success', data: stored });
  });

  it('turns a record missing a field into a failure with code 502 and no reason', async () => {
    const { odometer: _missing, ...withoutOdometer } = stored;
    fetchMock.mockResolvedValue(answer(201, withoutOdometer));
    expect(await apiCall('POST partner /repairs', { body: {} })).toEqual(MALFORMED);
  });

  it('turns a field of the wrong type into the same failure', async () => {
    fetchMock.mockResolvedValue(answer(200, { ...stored, odometer: '1000' }));
    expect(await apiCall('POST partner /repairs', { body: {} })).toEqual(MALFORMED);
  });

  it('checks the answers of calls with a parameter and a query too', async () => {
    fetchMock.mockResolvedValue(answer(200, [{ odometer: 'far', recorded_at: stored.recorded_at }]));
    expect(await apiCall('GET partner /vehicles/{kode_id}/readings', { params: { kode_id: 'KODE000001' } })).toEqual(
      MALFORMED,
    );
    fetchMock.mockResolvedValue(answer(200, [stored]));
    expect(await apiCall('GET partner /repairs', { query: { limit: 10, before: '2025-03-02T00:00:00.000Z' } })).toEqual(
      {
        code: 200,
        status: 'success',
        data: [stored],
      },
    );
  });

  it('checks a certificate call with the certificates’ own table, loaded apart from the others', async () => {
    const summary = {
      id: '7K3M-9QXD-2F8R-TN4W',
      kode_id: 'KODE000001',
      url: '/c/7K3M-9QXD-2F8R-TN4W',
      issued_at: '2025-03-01T08:00:00.000Z',
      valid_until: '2025-04-30T08:00:00.000Z',
      revoked_at: null,
      status: 'valid',
      readings_count: 2,
    };
    fetchMock.mockResolvedValue(answer(200, [{ ...summary, garage: 'someone' }]));
    expect(await apiCall('GET partner /certificates')).toEqual({ code: 200, status: 'success', data: [summary] });
    fetchMock.mockResolvedValue(answer(200, [{ ...summary, status: 'forged' }]));
    expect(await apiCall('GET partner /certificates')).toEqual(MALFORMED);
  });

  it('refuses a success with a status its call never answers', async () => {
    fetchMock.mockResolvedValue(answer(202, stored));
    expect(await apiCall('POST partner /repairs', { body: {} })).toEqual(MALFORMED);
  });

  it('leaves failures as the server worded them', async () => {
    const failure = {
      code: 404,
      status: 'error',
      error: { type: 'not_found', message: 'Inconnu', reason: 'vehicle_not_found' },
    };
    fetchMock.mockResolvedValue(new Response(JSON.stringify(failure), { status: 404 }));
    expect(await apiCall('GET partner /vehicles/{kode_id}', { params: { kode_id: 'KODE000009' } })).toEqual(failure);
  });

  it('types each call by its key: no other answer type, no unlisted call, no missing parameter', () => {
    // Checked by the type checker (npm run typecheck), never run.
    const _typed = async () => {
      // @ts-expect-error the statistics' answer is not a vehicle
      const _wrongAnswer: ApiResponse<Vehicle> = await apiCall('GET partner /statistics');
      // @ts-expect-error the contract lists no such call
      await apiCall('GET partner /nowhere');
      // @ts-expect-error the vehicle's call needs its kode_id
      await apiCall('GET partner /vehicles/{kode_id}');
      const _rightAnswer: ApiResponse<Vehicle> = await apiCall('GET partner /vehicles/{kode_id}', {
        params: { kode_id: 'KODE000001' },
      });
    };
    const keys: ApiCallKey[] = ['GET partner /statistics', 'POST partner /repairs'];
    expect(keys).toHaveLength(2);
  });

  it('fills the path from its parameters, encoded, and the query from the values given', () => {
    expect(callPath('/vehicles/{kode_id}/readings', { kode_id: 'KODE 0/1' })).toBe('/vehicles/KODE%200%2F1/readings');
    expect(callPath('/repairs', {}, { limit: 10, before: undefined, others: true })).toBe(
      '/repairs?limit=10&others=true',
    );
    expect(() => callPath('/repairs/{id}/photo')).toThrow('{id}');
  });

  it('sends each call with its method, base and path', async () => {
    fetchMock.mockResolvedValue(answer(200, null));
    await apiCall('DELETE auth /sessions/{id}', { params: { id: 'a b' }, bearer: true });
    const [url, init] = fetchMock.mock.calls.at(-1) as [string, RequestInit];
    expect([init.method, url]).toEqual(['DELETE', '/api/auth/sessions/a%20b']);
  });

  it('a malformed answer to POST /repairs is retried, never rejected', async () => {
    const { odometer: _missing, ...withoutOdometer } = stored;
    fetchMock.mockResolvedValue(answer(201, withoutOdometer));
    const result = await postRepair(KEY, { ...repair('KODE000001', 1000), recorded_at: stored.recorded_at });
    expect(classifySend(deliveryOf(result))).toMatchObject({ kind: 'retry', error: { code: MALFORMED_ANSWER_CODE } });
  });

  it('keeps the entry queued and stores nothing when the answer to it is malformed', async () => {
    const db = freshDatabase();
    const clock = new ManualScheduler();
    const uuid = sequentialUuids();
    const engine = new SyncEngine({
      db,
      transport: (row) => postRepair(row.key, row.entry),
      session: new FakeSession(),
      lock: memoryLock(),
      scheduler: clock,
      random: () => 0.5,
      uuid,
    });
    try {
      const { odometer: _missing, ...withoutOdometer } = stored;
      fetchMock.mockImplementation(async () => answer(201, withoutOdometer));
      await inserter(engine, db, clock.now, uuid)('partner-a', repair('KODE000001', 1000));
      await engine.idle();
      expect(fetchMock).toHaveBeenCalledTimes(1);
      expect(await db.outbox.toArray()).toMatchObject([
        { state: 'queued', attempts: 1, lastError: { code: MALFORMED_ANSWER_CODE } },
      ]);
      expect(await db.history.toArray()).toEqual([]);

      // The server's next answer is whole: the entry leaves the outbox and its record is kept.
      fetchMock.mockImplementation(async () => answer(200, stored));
      await clock.advance(60_000, () => engine.idle());
      expect(await db.outbox.toArray()).toEqual([]);
      expect((await db.history.toArray()).map((row) => row.id)).toEqual([stored.id]);
    } finally {
      engine.stop();
      await engine.idle();
      db.close();
      await db.delete();
    }
  });
});
