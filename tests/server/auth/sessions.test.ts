/**
 * The partner's signed-in devices (docs/API.md#sessions): GET /sessions lists them, DELETE ends one or
 * all the others, at once for the device signed out (its partner calls and its refresh answer 401
 * session_revoked); another partner's sessions are neither listed nor reachable. GET /sign-ins lists
 * the recent sign-ins, and a sign-in from a new device is logged without any secret.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthSession } from '../../../contract';
import { sessions, signIns } from '../../../server/db/schema';
import { listSignIns, recordSignIn, SIGN_INS_KEPT } from '../../../server/services/sign-ins';
import { createPartner, type TestPartner } from '../../support/partners';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import {
  expectClearedCookie,
  expectError,
  login,
  PROXY_ENV,
  refresh,
  refreshCookie,
  register,
  sessionRow,
} from './helpers';

/** A Samsung Galaxy Tab A8's Chrome, as it introduces itself. */
const TABLET_UA =
  'Mozilla/5.0 (Linux; Android 14; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Safari/537.36';
const TABLET = 'Chrome 126 · Android 14 · Samsung SM-X200';
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const PHONE = 'Mobile Safari 17 · iOS 17.5 · Apple iPhone';

interface DeviceSession {
  id: string;
  device: string;
  signed_in_at: string;
  last_used_at: string;
  address: string | null;
  current: boolean;
}

interface SignedIn {
  access: string;
  refresh: string;
  /** The session's id: its family. */
  id: string;
}

/** Signs `partner` in through the API from a device (User-Agent) and an address (the proxy's X-Forwarded-For). */
async function signInFrom(app: TestApp['app'], partner: TestPartner, userAgent: string, ip: string): Promise<SignedIn> {
  const res = await login(app, partner.email, partner.password, { ip, headers: { 'user-agent': userAgent } });
  expect(res.statusCode).toBe(200);
  const refreshToken = refreshCookie(res).value;
  const row = await sessionRow(app, refreshToken);
  return {
    access: res.json<{ data: AuthSession }>().data.access_token,
    refresh: refreshToken,
    id: row?.family_id ?? '',
  };
}

describe('/api/auth/sessions and /api/auth/sign-ins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: PROXY_ENV });
  });
  afterAll(() => t.close());

  const list = async (access: string, ip = '203.0.113.9') => {
    const res = await call(t.app, 'GET', '/api/auth/sessions', { token: access, headers: { 'x-forwarded-for': ip } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json<{ data: DeviceSession[] }>().data;
  };
  const end = (access: string, id: string) => call(t.app, 'DELETE', `/api/auth/sessions/${id}`, { token: access });
  const endOthers = (access: string, query = '?others=true') =>
    call(t.app, 'DELETE', `/api/auth/sessions${query}`, { token: access });
  /** A partner call; its status and reason. */
  const partnerCall = async (access: string) => {
    const res = await call(t.app, 'GET', '/api/partner/repair-types', { token: access });
    return { status: res.statusCode, reason: (res.json() as { error?: { reason?: string } }).error?.reason };
  };

  describe('GET /sessions', () => {
    it("lists the partner's sessions: the caller's first and marked current, the device read from its User-Agent, the network only", async () => {
      const partner = await createPartner(t.app);
      const tablet = await signInFrom(t.app, partner, TABLET_UA, '198.51.100.23');
      const phone = await signInFrom(t.app, partner, PHONE_UA, '2001:db8:85a3:8d3:1319:8a2e:370:7348');
      const stranger = await createPartner(t.app);
      const strangers = await signInFrom(t.app, stranger, TABLET_UA, '198.51.100.24');

      const listed = await list(tablet.access);
      // The partner's three: the tablet, the phone and the session createPartner made in the database.
      expect(listed).toHaveLength(3);
      expect(listed[0]).toMatchObject({ id: tablet.id, device: TABLET, address: '198.51.100.x', current: true });
      expect(listed.find((session) => session.id === phone.id)).toMatchObject({
        device: PHONE,
        address: '2001:db8:85a3::/48',
        current: false,
      });
      expect(listed.filter((session) => session.current)).toHaveLength(1);
      expect(listed.map((session) => session.id)).not.toContain(strangers.id);
      for (const session of listed) {
        expect(new Date(session.signed_in_at).toISOString()).toBe(session.signed_in_at);
        expect(new Date(session.last_used_at).toISOString()).toBe(session.last_used_at);
      }
      // Never the address itself, in any field. The ids are left out: they are random, and one may
      // hold '8a2e' as well as any address part (a failed run, 35e1756e-…-748b8a2e9ed6).
      const shownBesidesIds = JSON.stringify(listed.map((session) => ({ ...session, id: undefined })));
      expect(shownBesidesIds).not.toContain('198.51.100.23');
      expect(shownBesidesIds).not.toContain('8a2e');
      expect(shownBesidesIds).not.toContain('7348');
      // The stranger sees their own only.
      const theirs = (await list(strangers.access)).map((session) => session.id);
      expect(theirs).toContain(strangers.id);
      expect(theirs).toHaveLength(2);
      expect(theirs).not.toContain(tablet.id);
      expect(theirs).not.toContain(phone.id);
    });

    it("keeps a device's sign-in across refreshes; its last use and network follow its latest call", async () => {
      const partner = await createPartner(t.app);
      const tablet = await signInFrom(t.app, partner, TABLET_UA, '198.51.100.23');
      const [before] = (await list(tablet.access)).filter((session) => session.id === tablet.id);
      t.clock.advance(5 * 60_000);
      const rotated = await refresh(t.app, tablet.refresh, { 'x-forwarded-for': '192.0.2.200' });
      expect(rotated.statusCode).toBe(200);
      const access = rotated.json<{ data: AuthSession }>().data.access_token;
      const [after] = (await list(access)).filter((session) => session.id === tablet.id);
      expect(after).toMatchObject({
        id: tablet.id,
        device: TABLET,
        signed_in_at: before?.signed_in_at,
        address: '192.0.2.x',
        current: true,
      });
      expect(Date.parse(after?.last_used_at ?? '')).toBeGreaterThanOrEqual(
        Date.parse(before?.last_used_at ?? '') + 5 * 60_000,
      );
    });

    it('records the last use and its network at most once a minute', async () => {
      const partner = await createPartner(t.app);
      const tablet = await signInFrom(t.app, partner, TABLET_UA, '198.51.100.23');
      const stored = async () => {
        const [row] = await t.app.db
          .select({ last_used_at: sessions.last_used_at, address: sessions.address })
          .from(sessions)
          .where(eq(sessions.family_id, tablet.id));
        return row;
      };
      const signedIn = await stored();
      t.clock.advance(40_000);
      for (let call = 0; call < 3; call += 1) await list(tablet.access, '192.0.2.10');
      expect(await stored()).toEqual(signedIn);
      t.clock.advance(21_000);
      const [listed] = await list(tablet.access, '192.0.2.10');
      const touched = await stored();
      expect(touched?.address).toBe('192.0.2.x');
      expect(touched?.last_used_at.getTime()).toBeGreaterThanOrEqual((signedIn?.last_used_at.getTime() ?? 0) + 61_000);
      expect(listed?.last_used_at).toBe(touched?.last_used_at.toISOString());
    });

    it('answers 401 without an access token, and session_revoked with a revoked one', async () => {
      expectError(await call(t.app, 'GET', '/api/auth/sessions'), 401, 'auth', 'unauthorized');
      const partner = await createPartner(t.app);
      const tablet = await signInFrom(t.app, partner, TABLET_UA, '198.51.100.23');
      await call(t.app, 'POST', '/api/auth/logout/partner', { cookies: { refresh_token: tablet.refresh } });
      expectError(
        await call(t.app, 'GET', '/api/auth/sessions', { token: tablet.access }),
        401,
        'auth',
        'session_revoked',
      );
    });
  });

  describe('DELETE /sessions/{id}', () => {
    it('signs that device out at once: its partner calls and its refresh answer 401 session_revoked', async () => {
      const partner = await createPartner(t.app);
      const tablet = await signInFrom(t.app, partner, TABLET_UA, '198.51.100.23');
      const phone = await signInFrom(t.app, partner, PHONE_UA, '198.51.100.99');
      expect((await partnerCall(tablet.access)).status).toBe(200);

      const res = await end(phone.access, tablet.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: 200, status: 'success', data: null });

      expect(await partnerCall(tablet.access)).toEqual({ status: 401, reason: 'session_revoked' });
      const refused = await refresh(t.app, tablet.refresh);
      expectError(refused, 401, 'auth', 'session_revoked');
      expectClearedCookie(refused);
      // The phone goes on, and no longer lists the tablet.
      expect((await partnerCall(phone.access)).status).toBe(200);
      expect((await list(phone.access)).map((session) => session.id)).not.toContain(tablet.id);
    });

    it("signs the caller's own device out, and clears its refresh cookie", async () => {
      const partner = await createPartner(t.app);
      const tablet = await signInFrom(t.app, partner, TABLET_UA, '198.51.100.23');
      const res = await end(tablet.access, tablet.id);
      expect(res.statusCode).toBe(200);
      expectClearedCookie(res);
      expect(await partnerCall(tablet.access)).toEqual({ status: 401, reason: 'session_revoked' });
      expectError(await refresh(t.app, tablet.refresh), 401, 'auth', 'session_revoked');
      expect((await partnerCall(partner.token)).status).toBe(200);
    });

    it("answers 404 session_not_found for another partner's session, and leaves it alone", async () => {
      const partner = await createPartner(t.app);
      const stranger = await createPartner(t.app);
      const strangers = await signInFrom(t.app, stranger, TABLET_UA, '198.51.100.24');
      expectError(await end(partner.token, strangers.id), 404, 'not_found', 'session_not_found');
      expect((await partnerCall(strangers.access)).status).toBe(200);
      expect((await refresh(t.app, strangers.refresh)).statusCode).toBe(200);
    });

    it('answers 404 for an unknown id and for a session already ended, 400 for an id that is not one', async () => {
      const partner = await createPartner(t.app);
      const tablet = await signInFrom(t.app, partner, TABLET_UA, '198.51.100.23');
      expectError(await end(partner.token, crypto.randomUUID()), 404, 'not_found', 'session_not_found');
      expect((await end(partner.token, tablet.id)).statusCode).toBe(200);
      expectError(await end(partner.token, tablet.id), 404, 'not_found', 'session_not_found');
      expectError(await end(partner.token, 'not-a-session'), 400, 'validation', 'invalid_request');
    });
  });

  describe('DELETE /sessions?others=true', () => {
    it("signs every other device of the partner out and keeps the caller's; other partners are not touched", async () => {
      const partner = await createPartner(t.app);
      const tablet = await signInFrom(t.app, partner, TABLET_UA, '198.51.100.23');
      const phone = await signInFrom(t.app, partner, PHONE_UA, '198.51.100.99');
      const stranger = await createPartner(t.app);

      const res = await endOthers(tablet.access);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: 200, status: 'success', data: null });

      for (const access of [phone.access, partner.token]) {
        expect(await partnerCall(access)).toEqual({ status: 401, reason: 'session_revoked' });
      }
      expectError(await refresh(t.app, phone.refresh), 401, 'auth', 'session_revoked');
      expect((await partnerCall(tablet.access)).status).toBe(200);
      expect((await list(tablet.access)).map((session) => session.id)).toEqual([tablet.id]);
      expect((await partnerCall(stranger.token)).status).toBe(200);
    });

    it.each(['', '?others=false', '?others=1', '?all=true'])(
      'answers 400 invalid_request for %j, ending nothing',
      async (query) => {
        const partner = await createPartner(t.app);
        const tablet = await signInFrom(t.app, partner, TABLET_UA, '198.51.100.23');
        expectError(await endOthers(tablet.access, query), 400, 'validation', 'invalid_request');
        expect((await partnerCall(partner.token)).status).toBe(200);
      },
    );
  });

  describe('GET /sign-ins', () => {
    const signInList = async (access: string) => {
      const res = await call(t.app, 'GET', '/api/auth/sign-ins', { token: access });
      expect(res.statusCode).toBe(200);
      return res.json<{ data: { at: string; device: string; address: string | null; new_device: boolean }[] }>().data;
    };

    it("lists the partner's sign-ins, newest first, each with its device, network and whether the device was new", async () => {
      const partner = await createPartner(t.app);
      await signInFrom(t.app, partner, TABLET_UA, '198.51.100.23');
      t.clock.advance(1000);
      await signInFrom(t.app, partner, PHONE_UA, '2001:db8:85a3::1');
      t.clock.advance(1000);
      const again = await signInFrom(t.app, partner, TABLET_UA, '192.0.2.4');
      await signInFrom(t.app, await createPartner(t.app), TABLET_UA, '198.51.100.24');

      const listed = await signInList(again.access);
      expect(listed.map(({ at: _at, ...signIn }) => signIn)).toEqual([
        { device: TABLET, address: '192.0.2.x', new_device: false },
        { device: PHONE, address: '2001:db8:85a3::/48', new_device: true },
        { device: TABLET, address: '198.51.100.x', new_device: true },
      ]);
      expect(Date.parse(listed[0]?.at ?? '')).toBeGreaterThan(Date.parse(listed[2]?.at ?? ''));
    });

    it('counts a registration as the first sign-in', async () => {
      const { session } = await register(t.app);
      expect(await signInList(session.access_token)).toEqual([
        expect.objectContaining({ device: '', new_device: true }),
      ]);
    });

    it(`keeps the newest ${SIGN_INS_KEPT} of each partner`, async () => {
      const partner = await createPartner(t.app);
      const start = t.clock.now().getTime();
      for (let index = 0; index < SIGN_INS_KEPT + 5; index += 1) {
        await recordSignIn(t.app.db, partner.id, { device: `Device ${index}`, address: null }, new Date(start + index));
      }
      const kept = await t.app.db.select().from(signIns).where(eq(signIns.user_id, partner.id));
      expect(kept).toHaveLength(SIGN_INS_KEPT);
      const listed = await listSignIns(t.app.db, partner.id);
      expect(listed[0]?.device).toBe(`Device ${SIGN_INS_KEPT + 4}`);
      expect(listed.at(-1)?.device).toBe('Device 5');
    });
  });
});

describe('the log of a sign-in from a new device', () => {
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { ...PROXY_ENV, LOG_LEVEL: 'info' },
      logStream: { write: (line) => void lines.push(line) },
    });
  });
  afterAll(() => t.close());

  const newDeviceLines = () =>
    lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'sign-in from a new device');

  it("names the partner's id, the device and the network, never the email, password or tokens", async () => {
    const partner = await createPartner(t.app, { password: 'secret-garage-password' });
    const tablet = await signInFrom(t.app, partner, TABLET_UA, '198.51.100.23');

    const logged = newDeviceLines();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 30, partner_id: partner.id, device: TABLET, address: '198.51.100.x' });
    // The line keeps the network, not the address (the request lines of the log have it, as before).
    expect(JSON.stringify(logged[0])).not.toContain('198.51.100.23');
    const everything = lines.join('\n');
    for (const secret of ['secret-garage-password', partner.email, tablet.access, tablet.refresh]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('is written once per device: the same device signing in again is not logged', async () => {
    const partner = await createPartner(t.app);
    await signInFrom(t.app, partner, PHONE_UA, '198.51.100.50');
    await signInFrom(t.app, partner, PHONE_UA, '198.51.100.51');
    expect(newDeviceLines().filter((line) => line.partner_id === partner.id)).toHaveLength(1);
  });
});
