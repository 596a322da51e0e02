/**
 * The hand-over key (docs/API.md#post-login, docs/ARCHITECTURE.md#the-hand-over-file): every sign-in
 * answer (login, refresh, registration) carries the partner's key, the same on each of their tablets
 * and on every instance sharing HANDOVER_KEY, another for another partner, and none a client could
 * work out from what it knows (the partner's id).
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthSession } from '../../../contract';
import { loadTokenKeys } from '../../../server/services/keys';
import { createPartner, type TestPartner } from '../../support/partners';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import {
  login,
  mailFiles,
  PROXY_ENV,
  refresh,
  refreshCookie,
  register,
  resetTokenIn,
  uniqueIp,
  waitForMailTo,
} from './helpers';

const HANDOVER_KEY = crypto.randomBytes(32).toString('base64url');

async function signedIn(t: TestApp, partner: TestPartner) {
  const res = await login(t.app, partner.email, partner.password);
  expect(res.statusCode).toBe(200);
  return { data: res.json<{ data: AuthSession }>().data, refresh: refreshCookie(res).value };
}

describe('the hand-over key in sign-in answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...PROXY_ENV, HANDOVER_KEY } });
  });
  afterAll(() => t.close());

  it("is the same for one partner's two tablets, at login and at every refresh", async () => {
    const partner = await createPartner(t.app);
    const tabletA = await signedIn(t, partner);
    const tabletB = await signedIn(t, partner);
    expect(tabletA.data.handover_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tabletB.data.handover_key).toBe(tabletA.data.handover_key);

    const refreshed = await refresh(t.app, tabletB.refresh);
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json<{ data: AuthSession }>().data.handover_key).toBe(tabletA.data.handover_key);
  });

  it('differs from one partner to another', async () => {
    const [first, second] = [await createPartner(t.app), await createPartner(t.app)];
    const keys = [(await signedIn(t, first)).data.handover_key, (await signedIn(t, second)).data.handover_key];
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('is given at registration too, as the later sign-ins give it', async () => {
    const registered = await register(t.app);
    expect(registered.session.handover_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await login(t.app, registered.body.email, registered.body.password);
    expect(again.json<{ data: AuthSession }>().data.handover_key).toBe(registered.session.handover_key);
  });

  it('is HMAC-SHA256(HANDOVER_KEY, partner id): every instance with the setting gives the same, a client cannot', async () => {
    const partner = await createPartner(t.app);
    const expected = crypto
      .createHmac('sha256', Buffer.from(HANDOVER_KEY, 'base64url'))
      .update(partner.id)
      .digest('base64url');
    const { data } = await signedIn(t, partner);
    expect(data.handover_key).toBe(expected);
    // Nothing public stands in for the secret: not the id, nor a hash of it.
    expect(data.handover_key).not.toBe(crypto.createHash('sha256').update(partner.id).digest('base64url'));
    expect(data.handover_key).not.toContain(partner.id);
  });
});

describe('the hand-over key after a password change or reset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...PROXY_ENV, HANDOVER_KEY } });
  });
  afterAll(() => t.close());

  const keyOf = (partnerId: string, generation: number) =>
    crypto
      .createHmac('sha256', Buffer.from(HANDOVER_KEY, 'base64url'))
      .update(`${partnerId}:${generation}`)
      .digest('base64url');

  it('changes with the password: the tablet that changed it gets the new key at its next refresh', async () => {
    const partner = await createPartner(t.app);
    const tablet = await signedIn(t, partner);
    const before = tablet.data.handover_key;
    const body = { current_password: partner.password, new_password: 'a-new-password-9' };
    const changed = await call(t.app, 'PATCH', '/api/partner/profile', { token: tablet.data.access_token, body });
    expect(changed.statusCode).toBe(200);

    const refreshed = await refresh(t.app, tablet.refresh);
    expect(refreshed.statusCode).toBe(200);
    const after = refreshed.json<{ data: AuthSession }>().data.handover_key;
    expect(after).not.toBe(before);
    expect(after).toBe(keyOf(partner.id, 1));
    // Every later sign-in gives the new key, on any tablet.
    const again = await login(t.app, partner.email, 'a-new-password-9');
    expect(again.json<{ data: AuthSession }>().data.handover_key).toBe(after);
  });

  it('changes with a reset of the password, and again with each', async () => {
    const partner = await createPartner(t.app);
    const before = (await signedIn(t, partner)).data.handover_key;
    const keys = [before];
    for (const password of ['reset-password-1', 'reset-password-2']) {
      const mailsBefore = (await mailFiles(t.dataDir)).filter((mail) => mail.includes(`To: ${partner.email}`)).length;
      const forgot = await call(t.app, 'POST', '/api/auth/forgot-password', {
        body: { email: partner.email },
        headers: { 'x-forwarded-for': uniqueIp() },
      });
      expect(forgot.statusCode).toBe(200);
      const mails = await waitForMailTo(t.dataDir, partner.email, mailsBefore + 1);
      const token = resetTokenIn(mails.at(-1) ?? '', t.config.appUrl);
      const reset = await call(t.app, 'POST', '/api/auth/reset-password', {
        body: { token, new_password: password, confirm_password: password },
        headers: { 'x-forwarded-for': uniqueIp() },
      });
      expect(reset.statusCode).toBe(200);
      keys.push((await login(t.app, partner.email, password)).json<{ data: AuthSession }>().data.handover_key);
    }
    expect(new Set(keys).size).toBe(3);
    expect(keys.slice(1)).toEqual([keyOf(partner.id, 1), keyOf(partner.id, 2)]);
  });

  it('stays the same when the profile changes without the password', async () => {
    const partner = await createPartner(t.app);
    const tablet = await signedIn(t, partner);
    const body = { full_name: 'Garage Renamed' };
    expect(
      (await call(t.app, 'PATCH', '/api/partner/profile', { token: tablet.data.access_token, body })).statusCode,
    ).toBe(200);
    const refreshed = await refresh(t.app, tablet.refresh);
    expect(refreshed.json<{ data: AuthSession }>().data.handover_key).toBe(tablet.data.handover_key);
  });
});

describe('the hand-over secret', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: PROXY_ENV });
  });
  afterAll(() => t.close());

  it('is generated into DATA_DIR/keys.json without HANDOVER_KEY, and kept there across restarts', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'handover-keys-'));
    try {
      // A keys.json written before the hand-over key existed keeps its token keys and gains one.
      const older = {
        access: crypto.randomBytes(32).toString('base64url'),
        reset: crypto.randomBytes(32).toString('base64url'),
      };
      await fs.writeFile(path.join(dir, 'keys.json'), JSON.stringify(older));
      const first = await loadTokenKeys(dir, { access: null, reset: null, handover: null, certificate: null });
      const second = await loadTokenKeys(dir, { access: null, reset: null, handover: null, certificate: null });
      expect(first.access).toBe(`k4.local.${older.access}`);
      expect(Buffer.from(first.handover, 'base64url')).toHaveLength(32);
      expect(second.handover).toBe(first.handover);
      const fromEnv = await loadTokenKeys(dir, {
        access: null,
        reset: null,
        handover: HANDOVER_KEY,
        certificate: null,
      });
      expect(fromEnv.handover).toBe(HANDOVER_KEY);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('gives a key even to an app started without the setting (generated secret)', async () => {
    const partner = await createPartner(t.app);
    expect((await signedIn(t, partner)).data.handover_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
