/** A repair's odometer photo: joined once, checked by its bytes, served only to its garage (docs/API.md#photos). */
import crypto from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  PHOTO_MAX_BYTES,
  type ApiFailure,
  type ApiSuccess,
  type Photo,
  type RepairRecord,
  type VehicleReading,
} from '../../../contract';
import { PHOTO_READ_CHUNK_BYTES } from '../../../server/services/photos';
import { readImageHeader } from '../../../server/services/photos/image-header';
import { createPartner, recordRepair, useAppWithPartner, type TestPartner } from '../../support/partners';
import { jpegOf, pngOf, webpOf } from '../../support/photos';
import { CAMERA_XMP, pictureWithMetadata, realJpeg, realWebp } from '../../support/pictures';
import { call } from '../../support/test-app';

const fixture = useAppWithPartner();
const MINUTE = 60 * 1000;
let odometer = 50_000;

/** A new repair of the partner on KODE000002, a little further on than the last. */
function newRepair(partner: TestPartner = fixture.partner): Promise<RepairRecord> {
  odometer += 100;
  return recordRepair(fixture.t.app, partner, {
    kodeId: 'KODE000002',
    odometer,
    repairTypeId: 'oil_change',
    recordedAt: new Date(fixture.t.clock.now().getTime() - MINUTE),
  });
}

function put(repairId: string, bytes: Buffer, type: string, partner: TestPartner | null = fixture.partner) {
  return fixture.t.app.inject({
    method: 'PUT',
    url: `/api/partner/repairs/${repairId}/photo`,
    headers: { 'content-type': type, ...(partner ? { authorization: `Bearer ${partner.token}` } : {}) },
    payload: bytes,
  });
}

function get(repairId: string, headers: Record<string, string> = {}, partner: TestPartner | null = fixture.partner) {
  return fixture.t.app.inject({
    method: 'GET',
    url: `/api/partner/repairs/${repairId}/photo`,
    headers: { ...(partner ? { authorization: `Bearer ${partner.token}` } : {}), ...headers },
  });
}

function expectRefused(res: { statusCode: number; json<T>(): T }, status: number, reason: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json<ApiFailure>()).toMatchObject({ code: status, status: 'error', error: { reason } });
}

async function historyRecord(id: string, partner: TestPartner = fixture.partner): Promise<RepairRecord | undefined> {
  const res = await call(fixture.t.app, 'GET', '/api/partner/repairs?limit=500', { token: partner.token });
  return res.json<ApiSuccess<RepairRecord[]>>().data.find((record) => record.id === id);
}

/** The JPEG with a comment (COM) segment after its SOI, as some cameras and editors write. */
function withJpegComment(jpeg: Buffer, comment: string): Buffer {
  const text = Buffer.from(comment, 'latin1');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(text.length + 2);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xfe]), length, text, jpeg.subarray(2)]);
}

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

describe('PUT /api/partner/repairs/{id}/photo', () => {
  it('joins a WebP once: 201, then 200 for the same bytes, and the history carries it', async () => {
    const repair = await newRepair();
    expect((await historyRecord(repair.id))?.photo).toBeNull();
    const picture = await realWebp(1600, 1200);
    const first = await put(repair.id, picture, 'image/webp');
    expect(first.statusCode).toBe(201);
    const photo: Photo = {
      url: `/api/partner/repairs/${repair.id}/photo`,
      bytes: picture.length,
      width: 1600,
      height: 1200,
    };
    expect(first.json<ApiSuccess<Photo>>().data).toEqual(photo);

    const again = await put(repair.id, picture, 'image/webp');
    expect(again.statusCode).toBe(200);
    expect(again.json<ApiSuccess<Photo>>().data).toEqual(photo);
    expect((await historyRecord(repair.id))?.photo).toEqual(photo);
  });

  it('joins a JPEG, with a charset or capitals in its Content-Type', async () => {
    const repair = await newRepair();
    const res = await put(repair.id, await realJpeg(1200, 1600), 'Image/JPEG; charset=binary');
    expect(res.statusCode).toBe(201);
    expect(res.json<ApiSuccess<Photo>>().data).toMatchObject({ width: 1200, height: 1600 });
  });

  it('refuses a different photo for a repair that has one: 409 photo_exists, the first kept', async () => {
    const repair = await newRepair();
    const first = await realJpeg(800, 600, { variant: 1 });
    expect((await put(repair.id, first, 'image/jpeg')).statusCode).toBe(201);
    expectRefused(await put(repair.id, await realJpeg(800, 600, { variant: 2 }), 'image/jpeg'), 409, 'photo_exists');
    expectRefused(await put(repair.id, await realWebp(800, 600), 'image/webp'), 409, 'photo_exists');
    expect((await get(repair.id)).rawPayload.equals(first)).toBe(true);
  });

  it('refuses what is not a WebP or JPEG of its declared type: 415 photo_invalid', async () => {
    const repair = await newRepair();
    expectRefused(await put(repair.id, pngOf(640, 480), 'image/jpeg'), 415, 'photo_invalid');
    expectRefused(await put(repair.id, await realJpeg(640, 480), 'image/webp'), 415, 'photo_invalid');
    expectRefused(await put(repair.id, await realWebp(640, 480), 'image/jpeg'), 415, 'photo_invalid');
    expectRefused(await put(repair.id, Buffer.from('not a picture at all'), 'image/jpeg'), 415, 'photo_invalid');
    expectRefused(await put(repair.id, jpegOf(640, 480).subarray(0, 12), 'image/jpeg'), 415, 'photo_invalid');
    expectRefused(await put(repair.id, await realJpeg(1601, 1200), 'image/jpeg'), 415, 'photo_invalid');
    expectRefused(await put(repair.id, await realWebp(1200, 1601), 'image/webp'), 415, 'photo_invalid');
    expect((await historyRecord(repair.id))?.photo).toBeNull();
  });

  it('refuses bytes that only look like a photo: a header alone, a picture cut short or damaged', async () => {
    const repair = await newRepair();
    // 17 bytes whose header claims 1600×1200 (SOI, a frame header, EOI): no image data at all.
    const headerOnly = Buffer.from('ffd8ffc0000b0804b0064001011100ffd9', 'hex');
    expect(readImageHeader(headerOnly)).toEqual({ type: 'image/jpeg', width: 1600, height: 1200 });
    expectRefused(await put(repair.id, headerOnly, 'image/jpeg'), 415, 'photo_invalid');
    expectRefused(await put(repair.id, jpegOf(1600, 1200), 'image/jpeg'), 415, 'photo_invalid');
    expectRefused(await put(repair.id, webpOf(1600, 1200), 'image/webp'), 415, 'photo_invalid');
    const jpeg = await realJpeg(800, 600, { noise: true });
    const half = (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 2));
    expectRefused(await put(repair.id, half(jpeg), 'image/jpeg'), 415, 'photo_invalid');
    const webp = await realWebp(800, 600, { noise: true });
    expectRefused(await put(repair.id, half(webp), 'image/webp'), 415, 'photo_invalid');
    // Every segment whole and an end marker, but half the image data: only decoding it tells.
    const endedEarly = Buffer.concat([half(jpeg), Buffer.from([0xff, 0xd9])]);
    expectRefused(await put(repair.id, endedEarly, 'image/jpeg'), 415, 'photo_invalid');
    expect((await historyRecord(repair.id))?.photo).toBeNull();
  });

  for (const type of ['jpeg', 'webp'] as const) {
    it(`takes a ${type.toUpperCase()}'s metadata out before storing it: no GPS, no name, the picture whole`, async () => {
      const repair = await newRepair();
      const uploaded = await pictureWithMetadata(type, 1024, 768);
      const original = await sharp(uploaded).metadata();
      expect(original.exif).toBeDefined();
      expect(original.xmp).toBeDefined();
      const withComment = type === 'jpeg' ? withJpegComment(uploaded, 'Garage El Amel, Karim') : uploaded;
      const res = await put(repair.id, withComment, `image/${type}`);
      expect(res.statusCode).toBe(201);
      const served = (await get(repair.id)).rawPayload;
      expect(res.json<ApiSuccess<Photo>>().data).toMatchObject({ bytes: served.length, width: 1024, height: 768 });
      const text = served.toString('latin1');
      for (const trace of [
        'Exif',
        'Karim',
        'Benali',
        'TabletCam',
        'http://ns.adobe.com/xap',
        CAMERA_XMP.slice(0, 20),
      ]) {
        expect(text, trace).not.toContain(trace);
      }
      const kept = await sharp(served).metadata();
      expect(kept).toMatchObject({ format: type, width: 1024, height: 768 });
      expect(kept.exif).toBeUndefined();
      expect(kept.xmp).toBeUndefined();
      const pixels = async (bytes: Buffer) => sharp(bytes).raw().toBuffer();
      expect((await pixels(served)).equals(await pixels(uploaded))).toBe(true);
    });
  }

  it('refuses other media types with 415 unsupported_media_type, and the photo types on other routes', async () => {
    const repair = await newRepair();
    for (const type of ['image/png', 'text/plain', 'application/octet-stream', 'application/json']) {
      const body = type === 'application/json' ? Buffer.from('{}') : jpegOf(640, 480);
      expectRefused(await put(repair.id, body, type), 415, 'unsupported_media_type');
    }
    const elsewhere = await fixture.t.app.inject({
      method: 'PATCH',
      url: '/api/partner/profile',
      headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${fixture.partner.token}` },
      payload: jpegOf(640, 480),
    });
    expectRefused(elsewhere, 415, 'unsupported_media_type');
  });

  it(`refuses more than ${PHOTO_MAX_BYTES} bytes with 413 body_too_large in the envelope`, async () => {
    const repair = await newRepair();
    const picture = await realJpeg(1600, 1200);
    const tooLarge = Buffer.concat([picture, Buffer.alloc(PHOTO_MAX_BYTES + 1 - picture.length)]);
    expectRefused(await put(repair.id, tooLarge, 'image/jpeg'), 413, 'body_too_large');
    // What follows the image's end is kept by no one: the picture is stored without it.
    const justRight = Buffer.concat([picture, Buffer.alloc(PHOTO_MAX_BYTES - picture.length)]);
    const res = await put(repair.id, justRight, 'image/jpeg');
    expect(res.statusCode).toBe(201);
    expect(res.json<ApiSuccess<Photo>>().data.bytes).toBe(picture.length);
  });

  it("answers 404 for another partner's repair before reading its body, however large", async () => {
    const repair = await newRepair();
    const other = await createPartner(fixture.t.app);
    const tooLarge = Buffer.alloc(PHOTO_MAX_BYTES + 1);
    expectRefused(await put(repair.id, tooLarge, 'image/jpeg', other), 404, 'repair_not_found');
    expectRefused(await put(crypto.randomUUID(), tooLarge, 'image/jpeg'), 404, 'repair_not_found');
  });

  it("answers 404 repair_not_found for another partner's repair or none, 400 for an id that is not one", async () => {
    const repair = await newRepair();
    const other = await createPartner(fixture.t.app);
    expectRefused(await put(repair.id, jpegOf(640, 480), 'image/jpeg', other), 404, 'repair_not_found');
    expectRefused(await put(crypto.randomUUID(), jpegOf(640, 480), 'image/jpeg'), 404, 'repair_not_found');
    expectRefused(await put('not-a-uuid', jpegOf(640, 480), 'image/jpeg'), 400, 'invalid_request');
    expectRefused(await put(repair.id, jpegOf(640, 480), 'image/jpeg', null), 401, 'unauthorized');
    expect((await historyRecord(repair.id))?.photo).toBeNull();
  });
});

describe('GET /api/partner/repairs/{id}/photo', () => {
  it('answers the bytes to its garage, privately cached, with the sha256 as ETag and 304 to it', async () => {
    const repair = await newRepair();
    const picture = await realWebp(1024, 768, { variant: 7 });
    await put(repair.id, picture, 'image/webp');
    const res = await get(repair.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toMatch(/^private\b/);
    expect(res.headers.etag).toBe(`"${sha256(picture)}"`);
    expect(res.rawPayload.equals(picture)).toBe(true);

    const unchanged = await get(repair.id, { 'if-none-match': `"${sha256(picture)}"` });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.rawPayload.length).toBe(0);
  });

  it('answers 304 to every If-None-Match that names its ETag: weak, in a list, or *', async () => {
    const repair = await newRepair();
    const picture = await realWebp(800, 600, { variant: 11 });
    await put(repair.id, picture, 'image/webp');
    const tag = `"${sha256(picture)}"`;
    for (const header of [`W/${tag}`, `"0000", ${tag}`, `W/"1111",W/${tag}`, '*']) {
      const res = await get(repair.id, { 'if-none-match': header });
      expect(res.statusCode, header).toBe(304);
      expect(res.headers.etag, header).toBe(tag);
      expect(res.rawPayload.length, header).toBe(0);
    }
    for (const header of ['"0000"', `W/"0000", "${sha256(picture).slice(1)}"`, sha256(picture)]) {
      const res = await get(repair.id, { 'if-none-match': header });
      expect(res.statusCode, header).toBe(200);
      expect(res.rawPayload.equals(picture), header).toBe(true);
    }
  });

  it('answers a camera-sized photo, read piece by piece, byte for byte', async () => {
    const repair = await newRepair();
    const picture = await realJpeg(1600, 1200, { noise: true, quality: 90 });
    expect(picture.length).toBeGreaterThan(3 * PHOTO_READ_CHUNK_BYTES);
    expect((await put(repair.id, picture, 'image/jpeg')).statusCode).toBe(201);
    const res = await get(repair.id);
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(picture.length);
    expect(sha256(res.rawPayload)).toBe(sha256(picture));
  });

  it('keeps every error out of caches, as every other partner answer does', async () => {
    const repair = await newRepair();
    const refusals = [
      await get(repair.id),
      await get(repair.id, {}, null),
      await get(repair.id, { authorization: 'Bearer v4.local.expired' }, null),
    ];
    expect(refusals.map((res) => res.statusCode)).toEqual([404, 404, 401]);
    for (const res of refusals) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.vary).toMatch(/\bauthorization\b/i);
    }
  });

  it('is not found for another partner, without credentials, or before a photo is joined', async () => {
    const repair = await newRepair();
    expectRefused(await get(repair.id), 404, 'not_found');
    expect((await put(repair.id, await realJpeg(640, 480), 'image/jpeg')).statusCode).toBe(201);
    const other = await createPartner(fixture.t.app);
    expectRefused(await get(repair.id, {}, other), 404, 'not_found');
    expectRefused(await get(repair.id, {}, null), 404, 'not_found');
    expectRefused(await get(repair.id, { authorization: 'Bearer v4.local.expired' }, null), 401, 'session_expired');
  });
});

describe("a vehicle's readings", () => {
  it('say whether each reading has a photo, to every garage, and never give it', async () => {
    const withPhoto = await newRepair();
    expect((await put(withPhoto.id, await realJpeg(640, 480), 'image/jpeg')).statusCode).toBe(201);
    const without = await newRepair();
    const other = await createPartner(fixture.t.app);
    const res = await call(fixture.t.app, 'GET', '/api/partner/vehicles/KODE000002/readings', { token: other.token });
    const readings = res.json<ApiSuccess<VehicleReading[]>>().data;
    const at = (repair: RepairRecord) => readings.find((reading) => reading.odometer === repair.odometer);
    expect(at(withPhoto)).toEqual(expect.objectContaining({ has_photo: true, own: false }));
    expect(at(without)).toEqual(expect.objectContaining({ has_photo: false, own: false }));
    expect(JSON.stringify(readings)).not.toContain('/photo');
  });
});
