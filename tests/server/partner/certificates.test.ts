/**
 * Mileage certificates (docs/API.md#mileage-certificates): issued by a garage at the owner's request, read
 * by anyone with the link, revoked by their garage alone, expired after 60 days, and signed so that a
 * stranger checks them against the published key with an Ed25519 of its own (tests/support/certificates.ts).
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CERTIFICATE_ID_PATTERN,
  CERTIFICATE_VALIDITY_MS,
  certificateSigningInput,
  type ApiFailure,
  type ApiSuccess,
  type CertificateSummary,
  type PublicCertificate,
  type RepairRecord,
} from '../../../contract/server';
import { partners, repairPhotos, users } from '../../../server/db/schema';
import { canonicalBytes, fetchKeySet, issue, signatureHolds, verifies } from '../../support/certificates';
import { createPartner, recordRepair, type TestPartner } from '../../support/partners';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import { PROXY_ENV, uniqueIp } from '../auth/helpers';

const HOUR = 60 * 60 * 1000;

let t: TestApp;
/** The issuing garage, named and placed as a partner picks it on the map. */
let garage: TestPartner;
/** Another garage, which records readings of the same vehicles and must never be named. */
let other: TestPartner;
const OTHER_NAME = 'Garage Benali Frères';

beforeAll(async () => {
  t = await createTestApp({ env: PROXY_ENV });
  garage = await createPartner(t.app);
  other = await createPartner(t.app);
  await t.app.db.update(users).set({ full_name: 'Garage El Amel' }).where(eq(users.id, garage.id));
  await t.app.db
    .update(partners)
    .set({ address: 'Garage El Amel, Bab Ezzouar, Alger, Algérie' })
    .where(eq(partners.user_id, garage.id));
  await t.app.db.update(users).set({ full_name: OTHER_NAME }).where(eq(users.id, other.id));
});
afterAll(() => t.close());

const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);

function record(partner: TestPartner, kodeId: string, odometer: number, recordedAt: Date): Promise<RepairRecord> {
  return recordRepair(t.app, partner, { kodeId, odometer, recordedAt, repairTypeId: 'oil_change' });
}

/** GET /api/public/certificates/{id} with no credentials, from an address of its own (the lookups are limited). */
function lookUp(id: string) {
  return call(t.app, 'GET', `/api/public/certificates/${id}`, { headers: { 'x-forwarded-for': uniqueIp() } });
}

async function readPublicly(id: string): Promise<PublicCertificate> {
  const res = await lookUp(id);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ApiSuccess<PublicCertificate>>().data;
}

function expectRefused(res: Awaited<ReturnType<typeof call>>, code: number, reason: string) {
  expect(res.statusCode, res.body).toBe(code);
  expect(res.json<ApiFailure>().error).toMatchObject({ reason, message: expect.any(String) });
}

describe('POST /api/partner/vehicles/{kode_id}/certificates', () => {
  it("certifies the vehicle and its standing readings, oldest first, each garage's as issuer or other", async () => {
    const first = await record(garage, 'KODE000001', 50_000, ago(3 * HOUR));
    const second = await record(other, 'KODE000001', 50_120, ago(2 * HOUR));
    const third = await record(garage, 'KODE000001', 50_200, ago(HOUR));
    const issued = await issue(t.app, garage, 'kode000001');

    expect(issued.id).toMatch(CERTIFICATE_ID_PATTERN);
    expect(issued).toMatchObject({
      kode_id: 'KODE000001',
      url: `/c/${issued.id}`,
      revoked_at: null,
      status: 'valid',
      readings_count: 3,
    });
    expect(Date.parse(issued.valid_until) - Date.parse(issued.issued_at)).toBe(CERTIFICATE_VALIDITY_MS);
    const { payload } = issued.certificate;
    const reading = { reasons: [], photo: false, correction: null };
    expect(payload).toEqual({
      version: 1,
      id: issued.id,
      vehicle: { kode_id: 'KODE000001', vin: 'VF1S1CD16RB267735', brand: 'Renault', model: 'Symbol', year: 2024 },
      readings: [
        { ...reading, date: first.recorded_at, km: 50_000, verdict: 'no_verdict', garage: 'issuer' },
        { ...reading, date: second.recorded_at, km: 50_120, verdict: 'plausible', garage: 'other' },
        { ...reading, date: third.recorded_at, km: 50_200, verdict: 'plausible', garage: 'issuer' },
      ],
      issuer: { name: 'Garage El Amel', city: 'Alger' },
      issued_at: issued.issued_at,
      valid_until: issued.valid_until,
    });
  });

  it('is signed: an independent Ed25519 checks it against the published key; a changed byte does not pass', async () => {
    await record(garage, 'KODE000002', 80_000, ago(HOUR));
    const issued = await issue(t.app, garage, 'KODE000002');
    const keySet = await fetchKeySet(t.app);
    expect(verifies(issued.certificate, keySet)).toBe(true);
    // The contract's rule gives the very bytes the independent canonicalisation gives.
    expect(certificateSigningInput(issued.certificate.payload)).toEqual(canonicalBytes(issued.certificate.payload));

    const tampered = structuredClone(issued.certificate);
    tampered.payload.readings[0]!.km += 1;
    expect(verifies(tampered, keySet)).toBe(false);
    const bytes = canonicalBytes(issued.certificate.payload);
    for (const position of [0, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const changed = Uint8Array.from(bytes, (byte, index) => (index === position ? byte ^ 0x01 : byte));
      expect(signatureHolds(issued.certificate, keySet, changed), `byte ${position}`).toBe(false);
    }
  });

  it('leaves a superseded reading out and shows its correction as one; a photo is said, never shown', async () => {
    const typo = await record(garage, 'KODE000003', 12_000, ago(2 * HOUR));
    const res = await call(t.app, 'POST', '/api/partner/repairs', {
      token: garage.token,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: {
        kode_id: 'KODE000003',
        odometer: 120_000,
        repair_type_id: 'oil_change',
        consented: true,
        recorded_at: typo.recorded_at,
        corrects: typo.id,
        correction_reason: 'typo',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const correction = res.json<ApiSuccess<RepairRecord>>().data;
    await t.app.db.insert(repairPhotos).values({
      repair_id: correction.id,
      bytes: Uint8Array.from([0xff, 0xd8]),
      type: 'image/jpeg',
      byte_size: 2,
      width: 1,
      height: 1,
      sha256: crypto.createHash('sha256').update('photo').digest('hex'),
    });
    const issued = await issue(t.app, garage, 'KODE000003');
    expect(issued.certificate.payload.readings).toEqual([
      {
        date: typo.recorded_at,
        km: 120_000,
        verdict: 'no_verdict',
        reasons: [],
        photo: true,
        garage: 'issuer',
        correction: { reason: 'typo', replaced_km: 12_000 },
      },
    ]);
  });

  it("names no other garage, and not even the issuer's email or id, in what it answers or publishes", async () => {
    await record(other, 'V3SMJ5P6FX', 90_000, ago(2 * HOUR));
    await record(garage, 'V3SMJ5P6FX', 90_300, ago(HOUR));
    const issued = await issue(t.app, garage, 'V3SMJ5P6FX');
    const published = await lookUp(issued.id);
    expect(issued.certificate.payload.readings.map((reading) => reading.garage)).toEqual(['other', 'issuer']);
    for (const text of [JSON.stringify(issued), published.body]) {
      for (const secret of [OTHER_NAME, other.email, other.id, garage.email, garage.id]) {
        expect(text).not.toContain(secret);
      }
    }
  });

  it('refuses a vehicle without readings (422), an unknown one (404) and a malformed KODE ID (400)', async () => {
    const post = (kodeId: string) =>
      call(t.app, 'POST', `/api/partner/vehicles/${kodeId}/certificates`, {
        token: garage.token,
        body: { owner_consent: true },
      });
    expectRefused(await post('T4GUH2M9UP'), 422, 'certificate_no_readings');
    expectRefused(await post('ZZZZZZZZZZ'), 404, 'vehicle_not_found');
    expectRefused(await post('short'), 400, 'kode_id_invalid');
  });

  it("refuses without the owner's consent (400 owner_consent_required), and issues nothing", async () => {
    await record(garage, 'TEQUFH2RP7', 40_000, ago(HOUR));
    for (const body of [undefined, {}, { owner_consent: false }, { owner_consent: 'yes' }]) {
      const res = await call(t.app, 'POST', '/api/partner/vehicles/TEQUFH2RP7/certificates', {
        token: garage.token,
        body,
      });
      expectRefused(res, 400, 'owner_consent_required');
    }
    const res = await call(t.app, 'GET', '/api/partner/vehicles/TEQUFH2RP7/certificates', { token: garage.token });
    expect(res.json<ApiSuccess<CertificateSummary[]>>().data).toEqual([]);
  });

  it('needs a signed-in partner (401)', async () => {
    const res = await call(t.app, 'POST', '/api/partner/vehicles/KODE000001/certificates', {
      body: { owner_consent: true },
    });
    expectRefused(res, 401, 'unauthorized');
  });
});

describe('GET /api/public/certificates/{id}', () => {
  let issued: Awaited<ReturnType<typeof issue>>;
  beforeAll(async () => {
    await record(garage, 'B8RXR7BP4R', 70_000, ago(HOUR));
    issued = await issue(t.app, garage, 'B8RXR7BP4R');
  });

  it('answers the signed certificate to anyone, valid, never to be cached', async () => {
    const res = await lookUp(issued.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json<ApiSuccess<PublicCertificate>>().data).toEqual({
      certificate: issued.certificate,
      status: 'valid',
      revoked_at: null,
      newer_readings: 0,
    });
  });

  it('finds an id as a person types it from paper: lower case, no dashes, O for 0 and L for 1', async () => {
    const typed = issued.id.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o').replace(/1/g, 'l');
    expect((await readPublicly(encodeURIComponent(typed))).certificate.payload.id).toBe(issued.id);
  });

  it('counts the standing readings received since it was issued, from any garage', async () => {
    t.clock.advance(60_000);
    try {
      await record(other, 'B8RXR7BP4R', 70_400, t.clock.now());
      expect((await readPublicly(issued.id)).newer_readings).toBe(1);
      await record(garage, 'B8RXR7BP4R', 70_500, t.clock.now());
      expect((await readPublicly(issued.id)).newer_readings).toBe(2);
    } finally {
      t.clock.reset();
    }
    // What it certifies stays as signed.
    expect((await readPublicly(issued.id)).certificate).toEqual(issued.certificate);
  });

  it('says expired from valid_until on', async () => {
    t.clock.advance(CERTIFICATE_VALIDITY_MS - 60_000);
    try {
      expect((await readPublicly(issued.id)).status).toBe('valid');
      t.clock.advance(60_000);
      expect((await readPublicly(issued.id)).status).toBe('expired');
    } finally {
      t.clock.reset();
    }
  });

  it('answers an unknown or malformed id 404 certificate_not_found', async () => {
    for (const id of ['0000-0000-0000-0000', 'ABCD', 'UUUU-UUUU-UUUU-UUUU', `${issued.id}-0000`, 'x'.repeat(70)]) {
      expectRefused(await lookUp(id), 404, 'certificate_not_found');
    }
  });
});

describe("the garage's certificates: its lists and revocation", () => {
  const list = async (partner: TestPartner, url: string) => {
    const res = await call(t.app, 'GET', url, { token: partner.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ApiSuccess<CertificateSummary[]>>().data;
  };
  const revoke = (partner: TestPartner, id: string) =>
    call(t.app, 'DELETE', `/api/partner/certificates/${id}`, { token: partner.token });

  it('lists them newest first, for one vehicle and in all, with their status and KODE ID', async () => {
    await record(garage, 'UAWT88PAN7', 30_000, ago(HOUR));
    const first = await issue(t.app, garage, 'UAWT88PAN7');
    const second = await issue(t.app, garage, 'UAWT88PAN7');
    const ofVehicle = await list(garage, '/api/partner/vehicles/uawt88pan7/certificates');
    expect(ofVehicle.map((certificate) => certificate.id)).toEqual([second.id, first.id]);
    const { certificate: _signed, ...summary } = second;
    expect(ofVehicle[0]).toEqual(summary);
    const all = await list(garage, '/api/partner/certificates');
    expect(all.slice(0, 2).map((certificate) => certificate.id)).toEqual([second.id, first.id]);
    expect(new Set(all.map((certificate) => certificate.kode_id))).toContain('UAWT88PAN7');
  });

  it('pages GET /certificates by the last issued_at and id', async () => {
    const all = await list(garage, '/api/partner/certificates?limit=100');
    expect(all.length).toBeGreaterThan(3);
    const firstPage = await list(garage, '/api/partner/certificates?limit=2');
    const last = firstPage.at(-1)!;
    const rest = await list(
      garage,
      `/api/partner/certificates?limit=100&before=${encodeURIComponent(last.issued_at)}&before_id=${last.id}`,
    );
    expect([...firstPage, ...rest].map((certificate) => certificate.id)).toEqual(all.map((c) => c.id));
    const res = await call(t.app, 'GET', '/api/partner/certificates?limit=101', { token: garage.token });
    expectRefused(res, 400, 'invalid_request');
  });

  it('revokes one: the public page says revoked, and revoking again answers the same', async () => {
    await record(garage, 'Q8Q2A9XPGC', 20_000, ago(HOUR));
    const issued = await issue(t.app, garage, 'Q8Q2A9XPGC');
    const first = await revoke(garage, issued.id.toLowerCase());
    expect(first.statusCode, first.body).toBe(200);
    const revoked = first.json<ApiSuccess<CertificateSummary>>().data;
    expect(revoked).toMatchObject({ id: issued.id, status: 'revoked', revoked_at: expect.any(String) });
    t.clock.advance(60_000);
    try {
      const again = await revoke(garage, issued.id);
      expect(again.statusCode).toBe(200);
      expect(again.json<ApiSuccess<CertificateSummary>>().data).toEqual(revoked);
    } finally {
      t.clock.reset();
    }
    const published = await readPublicly(issued.id);
    expect(published).toMatchObject({ status: 'revoked', revoked_at: revoked.revoked_at });
    // Revoked, it is still what was signed: a verifier still checks it, and learns it was withdrawn.
    expect(verifies(published.certificate, await fetchKeySet(t.app))).toBe(true);
  });

  it('lets no other garage revoke it (404, as an unknown id) nor see it in its lists', async () => {
    await record(garage, 'T9HZHAX5QQ', 10_000, ago(HOUR));
    const issued = await issue(t.app, garage, 'T9HZHAX5QQ');
    expectRefused(await revoke(other, issued.id), 404, 'certificate_not_found');
    expectRefused(await revoke(other, '0000-0000-0000-0000'), 404, 'certificate_not_found');
    expectRefused(await revoke(garage, 'not-an-id'), 404, 'certificate_not_found');
    expect((await readPublicly(issued.id)).status).toBe('valid');
    expect(await list(other, '/api/partner/vehicles/T9HZHAX5QQ/certificates')).toEqual([]);
    expect((await list(other, '/api/partner/certificates')).map((certificate) => certificate.id)).not.toContain(
      issued.id,
    );
  });
});
