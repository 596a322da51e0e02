/**
 * One garage's flood of photo transfers cannot take the server (docs/API.md#photo-traffic): each
 * partner has a share of the photo reads and uploads running at once, what does not fit is answered
 * 503 `unavailable` with Retry-After, and another garage is served meanwhile.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { ApiFailure, RepairRecord } from '../../../contract';
import { createPartner, recordRepair, useAppWithPartner, type TestPartner } from '../../support/partners';
import { realJpeg } from '../../support/pictures';

const ONE_AT_A_TIME = { perProcess: 2, perKey: 1, queue: 0, queuePerKey: 0, maxWaitMs: 1_000 };
const fixture = useAppWithPartner({
  photoTraffic: { reads: ONE_AT_A_TIME, writes: ONE_AT_A_TIME, retryAfterSeconds: 3 },
});
let odometer = 80_000;

function newRepair(partner: TestPartner): Promise<RepairRecord> {
  odometer += 100;
  return recordRepair(fixture.t.app, partner, {
    kodeId: 'KODE000003',
    odometer,
    repairTypeId: 'oil_change',
    recordedAt: new Date(fixture.t.clock.now().getTime() - 60_000),
  });
}

function put(partner: TestPartner, repairId: string, payload: Buffer | PassThrough) {
  return fixture.t.app.inject({
    method: 'PUT',
    url: `/api/partner/repairs/${repairId}/photo`,
    headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${partner.token}` },
    payload,
  });
}

function get(partner: TestPartner, repairId: string, headers: Record<string, string> = {}) {
  return fixture.t.app.inject({
    method: 'GET',
    url: `/api/partner/repairs/${repairId}/photo`,
    headers: { authorization: `Bearer ${partner.token}`, ...headers },
  });
}

function expectTurnedAway(res: { statusCode: number; headers: Record<string, unknown>; json<T>(): T }) {
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe('3');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.json<ApiFailure>()).toMatchObject({ code: 503, status: 'error', error: { reason: 'unavailable' } });
}

const running = (kind: 'reads' | 'writes') => fixture.t.app.photoTraffic.load()[kind].running;

describe('photo traffic', () => {
  it("turns away a garage's second upload while its first is under way, and takes another garage's", async () => {
    const other = await createPartner(fixture.t.app);
    const [mine, again, theirs] = [
      await newRepair(fixture.partner),
      await newRepair(fixture.partner),
      await newRepair(other),
    ];
    const picture = await realJpeg(1600, 1200, { noise: true });
    const body = new PassThrough();
    body.write(picture.subarray(0, 1000));
    const slow = put(fixture.partner, mine.id, body);
    await vi.waitFor(() => expect(running('writes')).toBe(1), { timeout: 10_000, interval: 20 });

    expectTurnedAway(await put(fixture.partner, again.id, picture));
    expect((await put(other, theirs.id, picture)).statusCode).toBe(201);

    body.end(picture.subarray(1000));
    expect((await slow).statusCode).toBe(201);
    expect(running('writes')).toBe(0);
    expect((await put(fixture.partner, again.id, picture)).statusCode).toBe(201);
  });

  it("turns away a garage's photo reads beyond its share, and serves another garage's", async () => {
    const other = await createPartner(fixture.t.app);
    const mine = await newRepair(fixture.partner);
    const theirs = await newRepair(other);
    const picture = await realJpeg(1600, 1200, { noise: true, quality: 95 });
    expect((await put(fixture.partner, mine.id, picture)).statusCode).toBe(201);
    expect((await put(other, theirs.id, picture)).statusCode).toBe(201);

    // Ten at once, as a flood would ask: the first to take its turn holds it while its photo is read
    // piece by piece; the others find no room, and no place in line.
    const etag = (await get(fixture.partner, mine.id)).headers.etag as string;
    const [theirAnswer, ...flood] = await Promise.all([
      get(other, theirs.id),
      ...Array.from({ length: 10 }, () => get(fixture.partner, mine.id)),
    ]);
    expect(theirAnswer.statusCode).toBe(200);
    const served = flood.filter((res) => res.statusCode === 200);
    const turnedAway = flood.filter((res) => res.statusCode !== 200);
    expect(served.length).toBeGreaterThanOrEqual(1);
    expect(turnedAway.length).toBeGreaterThanOrEqual(1);
    for (const res of served) expect(res.rawPayload.equals(picture)).toBe(true);
    for (const res of turnedAway) expectTurnedAway(res);
    // Every turn is given back once its answer is sent.
    expect(running('reads')).toBe(0);
    expect((await get(fixture.partner, mine.id)).statusCode).toBe(200);
    expect((await get(fixture.partner, mine.id, { 'if-none-match': etag })).statusCode).toBe(304);
  });
});
