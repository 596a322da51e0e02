/**
 * What anyone reaches of the mileage certificates without signing in (docs/API.md#get-certificatesid,
 * docs/API.md#get-certificate-keys): the lookups' limit per client address, and the key set, which keeps
 * every key that ever signed so a certificate signed before CERTIFICATE_KEY changed still verifies.
 * CERTIFICATE_KEY is generated into keys.json outside production and required in it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PUBLIC_CERTIFICATE_LOOKUPS,
  type ApiFailure,
  type ApiSuccess,
  type PublicCertificate,
} from '../../../contract';
import { certificateSigner } from '../../../server/services/certificates';
import { loadTokenKeys } from '../../../server/services/keys';
import { fetchKeySet, issue, thumbprintOf, verifies } from '../../support/certificates';
import { createPartner, recordRepair } from '../../support/partners';
import { linesOf, serverStartFailure } from '../../support/processes';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import { PROXY_ENV, uniqueIp } from '../auth/helpers';

const newSeed = () => crypto.randomBytes(32).toString('base64url');

/** A partner of `t` with one reading of the vehicle, and a certificate of it. */
async function certificateFrom(t: TestApp, kodeId: string) {
  const partner = await createPartner(t.app);
  const recordedAt = new Date(t.clock.now().getTime() - 60 * 60 * 1000);
  await recordRepair(t.app, partner, { kodeId, odometer: 64_000, recordedAt, repairTypeId: 'oil_change' });
  return issue(t.app, partner, kodeId);
}

describe('GET /api/public/certificates/{id}: the limit per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: PROXY_ENV });
  });
  afterAll(() => t.close());

  const lookUp = (id: string, address: string) =>
    call(t.app, 'GET', `/api/public/certificates/${id}`, { headers: { 'x-forwarded-for': address } });

  it(`answers ${PUBLIC_CERTIFICATE_LOOKUPS.max} lookups a minute from one address, found or not, then 429`, async () => {
    const { id } = await certificateFrom(t, 'KODE000001');
    const address = uniqueIp();
    for (let lookup = 0; lookup < PUBLIC_CERTIFICATE_LOOKUPS.max; lookup += 1) {
      const res = await lookUp(lookup % 2 === 0 ? id : '0000-0000-0000-0000', address);
      expect(res.statusCode).toBe(lookup % 2 === 0 ? 200 : 404);
    }
    for (const tried of [id, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ', 'not-an-id']) {
      const refused = await lookUp(tried, address);
      expect(refused.statusCode).toBe(429);
      expect(refused.json<ApiFailure>().error.reason).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(PUBLIC_CERTIFICATE_LOOKUPS.windowMs / 1000);
    }
    // Another address is counted on its own.
    expect((await lookUp(id, uniqueIp())).statusCode).toBe(200);
  });
});

describe('GET /api/public/certificate-keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is a JSON Web Key Set of Ed25519 keys named by their RFC 7638 thumbprint, public and cacheable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/public/certificate-keys' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/jwk-set+json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const { keys } = res.json<{ keys: Record<string, unknown>[] }>();
    expect(keys).toEqual([
      {
        kty: 'OKP',
        crv: 'Ed25519',
        x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        kid: expect.any(String),
        alg: 'EdDSA',
        use: 'sig',
      },
    ]);
    expect(keys[0]!.kid).toBe(thumbprintOf(String(keys[0]!.x)));
  });
});

describe('CERTIFICATE_KEY rotation', () => {
  const KEY_A = newSeed();
  const KEY_B = newSeed();
  let a: TestApp;
  let b: TestApp | undefined;
  beforeAll(async () => {
    a = await createTestApp({ env: { CERTIFICATE_KEY: KEY_A } });
  });
  afterAll(async () => {
    await b?.close();
    await a.close();
  });

  it('keeps verifying what key A signed once the server signs with key B, and publishes both', async () => {
    const signedWithA = await certificateFrom(a, 'KODE000002');
    const [kidA] = (await fetchKeySet(a.app)).keys.map((key) => key.kid);
    expect(signedWithA.certificate.kid).toBe(kidA);

    // The same database, now served with another key: a restart with a new CERTIFICATE_KEY.
    b = await createTestApp({ env: { CERTIFICATE_KEY: KEY_B }, sameDatabaseAs: a });
    const keySet = await fetchKeySet(b.app);
    const kidB = keySet.keys[0]!.kid;
    expect(keySet.keys.map((key) => key.kid)).toEqual([kidB, kidA]);
    expect(kidB).not.toBe(kidA);
    expect(verifies(signedWithA.certificate, keySet)).toBe(true);
    const read = await call(b.app, 'GET', `/api/public/certificates/${signedWithA.id}`);
    expect(read.json<ApiSuccess<PublicCertificate>>().data.certificate).toEqual(signedWithA.certificate);

    const signedWithB = await certificateFrom(b, 'KODE000003');
    expect(signedWithB.certificate.kid).toBe(kidB);
    const later = await fetchKeySet(b.app);
    expect(later.keys.map((key) => key.kid)).toEqual([kidB, kidA]);
    expect(verifies(signedWithB.certificate, later)).toBe(true);
    expect(verifies(signedWithA.certificate, later)).toBe(true);
    // Each signature holds under its own key only.
    expect(verifies({ ...signedWithA.certificate, kid: kidB }, later)).toBe(false);
  });
});

describe('CERTIFICATE_KEY', () => {
  it('is the 32-byte Ed25519 seed of RFC 8032: another implementation derives the same public key', () => {
    const seed = newSeed();
    const signer = certificateSigner(seed);
    const publicKey = ed25519.getPublicKey(Buffer.from(seed, 'base64url'));
    expect(signer.publicKey).toBe(Buffer.from(publicKey).toString('base64url'));
    expect(signer.kid).toBe(thumbprintOf(signer.publicKey));
  });

  it('is generated into DATA_DIR/keys.json without the setting, added to an older keys.json, and kept', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'certificate-keys-'));
    const unset = { access: null, reset: null, handover: null, certificate: null };
    try {
      const older = { access: newSeed(), reset: newSeed(), handover: newSeed() };
      await fs.writeFile(path.join(dir, 'keys.json'), JSON.stringify(older));
      const first = await loadTokenKeys(dir, unset);
      expect(first.handover).toBe(older.handover);
      expect(Buffer.from(first.certificate, 'base64url')).toHaveLength(32);
      expect((await loadTokenKeys(dir, unset)).certificate).toBe(first.certificate);
      const configured = newSeed();
      expect((await loadTokenKeys(dir, { ...unset, certificate: configured })).certificate).toBe(configured);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('is required in production: the server does not start without it, and says so in one line', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'certificate-key-missing-'));
    try {
      const result = await serverStartFailure({
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        ACCESS_TOKEN_KEY: newSeed(),
        RESET_TOKEN_KEY: newSeed(),
        HANDOVER_KEY: newSeed(),
      });
      expect(result.code).toBe(2);
      expect(linesOf(result.stderr)).toEqual([
        'Configuration error: CERTIFICATE_KEY is required when NODE_ENV=production',
      ]);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
