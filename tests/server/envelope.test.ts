import crypto from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TYPES, type ApiFailure } from '../../contract';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../support/test-app';
import { createPartner, type TestPartner } from '../support/partners';

/**
 * Whatever a client sends, the answer is the one JSON envelope with a 4xx (docs/API.md#the-envelope):
 * never a stack trace, never a 500.
 */
describe('the error envelope', () => {
  let t: TestApp;
  let partner: TestPartner;
  beforeAll(async () => {
    t = await createTestApp();
    partner = await createPartner(t.app);
  });
  afterAll(() => t.close());

  const send = (options: InjectOptions & { token?: boolean }) => {
    const { token, headers, ...rest } = options;
    return t.app.inject({
      ...rest,
      headers: {
        'x-origin': TEST_ORIGIN,
        ...(token ? { authorization: `Bearer ${partner.token}` } : {}),
        ...headers,
      },
    });
  };
  const repairsPost = (payload: string | Buffer, headers: Record<string, string> = {}) =>
    send({
      method: 'POST',
      url: '/api/partner/repairs',
      token: true,
      payload,
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), ...headers },
    });

  function expectEnvelope(res: LightMyRequestResponse, code: number, type: string, reason?: string): ApiFailure {
    expect(res.statusCode).toBe(code);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json<ApiFailure>();
    expect(body.code).toBe(code);
    expect(body.status).toBe('error');
    expect(body.error.type).toBe(type);
    expect(ERROR_TYPES).toContain(body.error.type);
    expect(typeof body.error.message).toBe('string');
    expect(body.error.message.length).toBeGreaterThan(0);
    if (reason) expect(body.error.reason).toBe(reason);
    expect(Object.keys(body).sort()).toEqual(['code', 'error', 'status']);
    // Nothing internal: no stack frames, file paths or library error codes.
    expect(res.body).not.toMatch(/\bat .+:\d+:\d+|node_modules|\/server\/|FST_|stack/);
    return body;
  }

  describe('malformed bodies', () => {
    it.each(['{', '{"kode_id": }', "{'single': 'quotes'}", 'undefined', 'NaN', '{"a":1}x', '\u0000'])(
      'answers 400 malformed_json for %j',
      async (payload) => {
        const body = expectEnvelope(await repairsPost(payload), 400, 'validation', 'malformed_json');
        expect(body.error.message).toBe('Le corps de la requête n’est pas un JSON valide');
      },
    );

    it('answers 400 for an empty JSON body', async () => {
      expectEnvelope(await repairsPost(''), 400, 'validation', 'malformed_json');
    });

    it('answers 400 for a body that tries prototype poisoning', async () => {
      const res = await repairsPost('{"__proto__": {"admin": true}, "kode_id": "KODE000001"}');
      expectEnvelope(res, 400, 'validation');
      const ctor = await repairsPost('{"constructor": {"prototype": {"admin": true}}}');
      expectEnvelope(ctor, 400, 'validation');
    });

    it('words malformed_json in the language asked for', async () => {
      const res = await repairsPost('{', { 'accept-language': 'en' });
      expect(expectEnvelope(res, 400, 'validation').error.message).toBe('The request body is not valid JSON');
    });
  });

  describe('wrong types', () => {
    it.each(['null', '[]', '"a string"', '42', 'true', '[{"kode_id":"KODE000001"}]'])(
      'answers 400 validation for a top-level %s',
      async (payload) => {
        expectEnvelope(await repairsPost(payload), 400, 'validation');
      },
    );

    it('answers 400 validation with per-field messages for wrong field types', async () => {
      const res = await repairsPost(
        JSON.stringify({
          kode_id: ['KODE000001'],
          odometer: '12',
          repair_type_id: 7,
          consented: 'yes',
          note: 5,
          recorded_at: 1_700_000_000_000,
        }),
      );
      // The reason is the first invalid field's own code.
      const body = expectEnvelope(res, 400, 'validation', 'kode_id_invalid');
      expect(body.error.message).toBe('Veuillez saisir un KODE ID valide');
      expect(Object.keys(body.error.fields ?? {}).sort()).toEqual(
        ['consented', 'kode_id', 'note', 'odometer', 'recorded_at', 'repair_type_id'].sort(),
      );
    });

    it('answers 400 validation for a wrong query string', async () => {
      for (const query of ['limit=x', 'limit=1e9', 'limit=', 'before=%00', 'before=2026-01-01T00:00:00']) {
        const res = await send({ method: 'GET', url: `/api/partner/repairs?${query}`, token: true });
        expectEnvelope(res, 400, 'validation');
      }
    });
  });

  describe('oversized bodies', () => {
    it('answers 413 for a body over 64 KB', async () => {
      const payload = JSON.stringify({ kode_id: 'KODE000001', note: 'x'.repeat(65 * 1024) });
      const body = expectEnvelope(await repairsPost(payload), 413, 'validation', 'body_too_large');
      expect(body.error.message).toBe('Requête trop volumineuse');
    });

    it('answers 413 for a large body on a public or auth path too', async () => {
      const payload = JSON.stringify({ email: `${'x'.repeat(70 * 1024)}@example.dz`, password: 'x' });
      for (const url of ['/api/auth/login', '/api/auth/register/partner', '/api/auth/forgot-password']) {
        const res = await send({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
        expectEnvelope(res, 413, 'validation', 'body_too_large');
      }
      const profile = await send({
        method: 'PATCH',
        url: '/api/partner/profile',
        token: true,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expectEnvelope(profile, 413, 'validation', 'body_too_large');
    });

    it('accepts a body just under the limit (and validates it)', async () => {
      const payload = JSON.stringify({ note: 'x'.repeat(60 * 1024) });
      // Parsed, then refused by validation: the first missing field is kode_id.
      expectEnvelope(await repairsPost(payload), 400, 'validation', 'kode_id_invalid');
    });
  });

  describe('content types', () => {
    it('answers 400 for text/plain, which Fastify reads as a string the schema refuses', async () => {
      expectEnvelope(await repairsPost('kode_id=KODE000001', { 'content-type': 'text/plain' }), 400, 'validation');
    });

    it.each(['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'image/png'])(
      'answers 415 unsupported_media_type for %s',
      async (contentType) => {
        const res = await repairsPost('kode_id=KODE000001', { 'content-type': contentType });
        expectEnvelope(res, 415, 'validation', 'unsupported_media_type');
      },
    );

    it('accepts application/json with a charset', async () => {
      const res = await repairsPost(
        JSON.stringify({
          kode_id: 'KODE000001',
          odometer: 1000,
          repair_type_id: 'oil_change',
          consented: true,
          recorded_at: new Date(t.clock.now().getTime() - 60_000).toISOString(),
        }),
        { 'content-type': 'application/json; charset=utf-8' },
      );
      expect(res.statusCode).toBe(201);
    });
  });

  describe('unknown routes and wrong methods', () => {
    it.each([
      ['GET', '/api'],
      ['GET', '/api/'],
      ['GET', '/api/nothing'],
      ['GET', '/api/partner/nothing'],
      ['GET', '/api/public/nothing'],
      ['POST', '/api/nothing'],
      ['GET', '/api/partner/repairs/123'],
    ] as const)('answers 404 not_found for %s %s', async (method, url) => {
      const res = await send({ method, url, token: true });
      expectEnvelope(res, 404, 'not_found', 'not_found');
    });

    it.each([
      ['DELETE', '/api/partner/repairs'],
      ['PUT', '/api/partner/repairs'],
      ['PATCH', '/api/partner/repairs'],
      ['POST', '/api/partner/statistics'],
      ['DELETE', '/api/partner/vehicles/KODE000001'],
      ['POST', '/api/public/settings'],
      ['PUT', '/api/public/client-config'],
      ['POST', '/api/images/avatar.png'],
      ['DELETE', '/api/images/avatar.png'],
      ['OPTIONS', '/api/partner/repairs'],
      ['TRACE', '/api/partner/repairs'],
      ['GET', `/api/partner/vehicles/${'A'.repeat(300)}`],
      ['GET', `/api/images/${'a'.repeat(300)}.png`],
      ['GET', '/api/partner/vehicles/%E0%A4%A'],
      ['GET', '/api/partner/vehicles/%'],
      ['GET', '/api/images/%E0%A4%A.png'],
      ['GET', '/api/nothing/%E0%A4%A'],
    ] as const)('answers a 4xx in the envelope for %s %s', async (method, url) => {
      const res = await send({
        method,
        url,
        token: true,
        payload: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expectEnvelope(res, res.statusCode, res.statusCode === 404 ? 'not_found' : 'validation');
    });
  });

  describe('authentication', () => {
    it.each([
      ['no header', undefined],
      ['an empty bearer', 'Bearer '],
      ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
      ['garbage', 'Bearer not-a-token'],
      ['a public token', 'Bearer v4.public.eyJzdWIiOiJ4In0'],
    ])('answers 401 in the envelope with %s', async (_name, authorization) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/partner/statistics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expectEnvelope(res, 401, 'auth');
    });
  });
});
