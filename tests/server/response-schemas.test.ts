// @vitest-environment node
/**
 * Answers go out through their call's schema in contract/endpoints.ts, as the app wires it
 * (server/http/serialization.ts): a field the contract does not name never leaves the server, and a
 * missing one is a 500, never a half record a client would store.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { responseSchemas, type RepairRecord } from '../../contract/server';
import { zodSerializerCompiler } from '../../server/http/serialization';
import { success } from '../../server/http/reply';
import { envelopePlugin } from '../../server/plugins/envelope';
import { repairRecord } from '../support/records';

const record: RepairRecord = repairRecord({
  id: '00000000-0000-4000-8000-0000000000aa',
  vehicle: { kode_id: 'KODE000001', vin: 'VF1RFB00000000001', brand: 'Renault', name: 'Clio', year: 2019 },
  repair_type: { id: 'oil', name: 'Vidange', name_ar: null, name_en: null },
  odometer: 1000,
  recorded_at: '2025-03-01T08:00:00.000Z',
  idempotency_key: '00000000-0000-4000-8000-000000000001',
  correctable_until: '2025-03-08T08:00:00.000Z',
});

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

/** A POST /repairs whose handler answers `data` (what a service might return by mistake). */
async function repairsAnswering(data: unknown): Promise<FastifyInstance> {
  app = Fastify({ logger: false });
  app.setSerializerCompiler(zodSerializerCompiler);
  await app.register(envelopePlugin);
  app.post(
    '/api/partner/repairs',
    { schema: { response: responseSchemas('POST partner /repairs') } },
    async (_r, reply) => success(reply, data, 201),
  );
  await app.ready();
  return app;
}

describe('answers written through the contract', () => {
  it('drops what the contract does not name, at any depth', async () => {
    const server = await repairsAnswering({
      ...record,
      partner_id: 'the-recording-garage',
      vehicle: { ...record.vehicle, owner_phone: '0555000000' },
    });
    const res = await server.inject({ method: 'POST', url: '/api/partner/repairs' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ code: 201, status: 'success', data: record });
  });

  it('answers 500 internal, in the envelope, when a required field is missing', async () => {
    const { idempotency_key: _missing, ...incomplete } = record;
    const server = await repairsAnswering(incomplete);
    const res = await server.inject({ method: 'POST', url: '/api/partner/repairs' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 500, status: 'error', error: { type: 'other', reason: 'internal' } });
  });

  it('checks failures against the error envelope too', async () => {
    app = Fastify({ logger: false });
    app.setSerializerCompiler(zodSerializerCompiler);
    await app.register(envelopePlugin);
    app.get(
      '/api/partner/statistics',
      { schema: { response: responseSchemas('GET partner /statistics') } },
      async (_r, reply) =>
        reply.code(404).send({
          code: 404,
          status: 'error',
          error: { type: 'not_found', message: 'x', reason: 'not_found', stack: 'at …' },
        }),
    );
    const res = await app.inject({ method: 'GET', url: '/api/partner/statistics' });
    expect(res.json()).toEqual({
      code: 404,
      status: 'error',
      error: { type: 'not_found', message: 'x', reason: 'not_found' },
    });
  });
});
