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
import { createTestApp, type TestApp } from '../../support/test-app';
import { login, PROXY_ENV, refresh, refreshCookie, register } from './helpers';

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
      const first = await loadTokenKeys(dir, { access: null, reset: null, handover: null });
      const second = await loadTokenKeys(dir, { access: null, reset: null, handover: null });
      expect(first.access).toBe(`k4.local.${older.access}`);
      expect(Buffer.from(first.handover, 'base64url')).toHaveLength(32);
      expect(second.handover).toBe(first.handover);
      const fromEnv = await loadTokenKeys(dir, { access: null, reset: null, handover: HANDOVER_KEY });
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
