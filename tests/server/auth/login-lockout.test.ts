/**
 * Brute force stays bounded without letting a stranger lock a partner out of their own account.
 * A successful sign-in leaves a device cookie naming the email; attempts that present it are
 * counted per device, apart from everyone else's. Attempts without it are limited per address and
 * email, per address, and under a looser ceiling per email across all addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, type TestPartner } from '../../support/partners';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import { deviceCookie, expectRateLimited, login, PROXY_ENV, registerBody, strangerGuesses, uniqueIp } from './helpers';

const PER_ADDRESS_AND_EMAIL = 10;
const PER_EMAIL_ACROSS_ADDRESSES = 30;
const PER_DEVICE = 10;
const WINDOW_SECONDS = 15 * 60;

describe('sign-in limits and the device cookie', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: PROXY_ENV });
  });
  afterAll(() => t.close());

  /** The owner signs in once from their tablet: the device cookie it keeps from then on. */
  async function ownerDevice(partner: TestPartner): Promise<Record<string, string>> {
    const res = await login(t.app, partner.email, partner.password);
    expect(res.statusCode).toBe(200);
    return { login_device: deviceCookie(res).value };
  }

  it('gives a signed-in browser an HttpOnly, SameSite=Strict device cookie scoped to /api/auth', async () => {
    const partner = await createPartner(t.app);
    const cookie = deviceCookie(await login(t.app, partner.email, partner.password));
    expect(cookie.value).toMatch(/^v4\.local\./);
    expect(cookie.value).not.toContain(partner.email);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    expect(cookie.secure).toBeUndefined();
    expect(cookie.maxAge).toBe(365 * 24 * 3600);
    // None for a failed attempt.
    const failed = await login(t.app, partner.email, 'wrong-password');
    expect(failed.headers['set-cookie']).toBeUndefined();
  });

  it("locks strangers out of an email they hammer, while the owner's device still signs in", async () => {
    const partner = await createPartner(t.app);
    const device = await ownerDevice(partner);
    const statuses = await strangerGuesses(t.app, partner.email, 5, PER_ADDRESS_AND_EMAIL);
    // The owner's first sign-in on that tablet, without a device cookie yet, counted among them.
    const allowed = PER_EMAIL_ACROSS_ADDRESSES - 1;
    expect(statuses.slice(0, allowed)).toEqual(Array(allowed).fill(401));
    expect(statuses.slice(allowed)).toEqual(Array(statuses.length - allowed).fill(429));

    // Strangers are refused even with the right password, from any address…
    expectRateLimited(await login(t.app, partner.email, partner.password), WINDOW_SECONDS);
    // …but the owner's tablet, presenting its device cookie, is not.
    const owner = await login(t.app, partner.email, partner.password, { cookies: device });
    expect(owner.statusCode).toBe(200);
  });

  it('still limits each address for one email', async () => {
    const partner = await createPartner(t.app);
    const ip = uniqueIp();
    const statuses = await Promise.all(
      Array.from({ length: PER_ADDRESS_AND_EMAIL }, () => login(t.app, partner.email, 'wrong-password', { ip })),
    );
    expect(statuses.map((res) => res.statusCode)).toEqual(Array(PER_ADDRESS_AND_EMAIL).fill(401));
    expectRateLimited(await login(t.app, partner.email, partner.password, { ip }), WINDOW_SECONDS);
    // Another address, under the email's ceiling, is not affected.
    expect((await login(t.app, partner.email, partner.password)).statusCode).toBe(200);
  });

  it('holds the ceiling per email across addresses for clients without a device cookie', async () => {
    const partner = await createPartner(t.app);
    const statuses = await strangerGuesses(t.app, partner.email, PER_EMAIL_ACROSS_ADDRESSES, 1);
    expect(statuses).toEqual(Array(PER_EMAIL_ACROSS_ADDRESSES).fill(401));
    expectRateLimited(await login(t.app, partner.email, partner.password), WINDOW_SECONDS);
  });

  it('limits guesses from one device too, without touching other clients', async () => {
    const partner = await createPartner(t.app);
    const device = await ownerDevice(partner);
    for (let attempt = 0; attempt < PER_DEVICE; attempt += 1) {
      const res = await login(t.app, partner.email, 'wrong-password', { cookies: device });
      expect(res.statusCode).toBe(401);
    }
    expectRateLimited(await login(t.app, partner.email, partner.password, { cookies: device }), WINDOW_SECONDS);
    expect((await login(t.app, partner.email, partner.password)).statusCode).toBe(200);
  });

  it('does not trust a device cookie for another email, nor a forged one', async () => {
    const partner = await createPartner(t.app);
    const other = await createPartner(t.app);
    const otherDevice = await ownerDevice(other);
    await strangerGuesses(t.app, partner.email, 3, PER_ADDRESS_AND_EMAIL);
    expectRateLimited(await login(t.app, partner.email, partner.password, { cookies: otherDevice }), WINDOW_SECONDS);
    const forged = { login_device: `${otherDevice.login_device?.slice(0, -4)}AAAA` };
    expectRateLimited(await login(t.app, partner.email, partner.password, { cookies: forged }), WINDOW_SECONDS);
  });

  it('gives the device cookie on registration too', async () => {
    const body = registerBody();
    const res = await call(t.app, 'POST', '/api/auth/register/partner', {
      body,
      headers: { 'x-forwarded-for': uniqueIp() },
    });
    expect(res.statusCode).toBe(201);
    const device = { login_device: deviceCookie(res).value };
    await strangerGuesses(t.app, body.email, 4, PER_ADDRESS_AND_EMAIL);
    expectRateLimited(await login(t.app, body.email, body.password), WINDOW_SECONDS);
    expect((await login(t.app, body.email, body.password, { cookies: device })).statusCode).toBe(200);
  });

  it('trusts a device cookie only for a year', async () => {
    const partner = await createPartner(t.app);
    const device = await ownerDevice(partner);
    t.clock.advance(366 * 24 * 3600 * 1000);
    try {
      await strangerGuesses(t.app, partner.email, 3, PER_ADDRESS_AND_EMAIL);
      expectRateLimited(await login(t.app, partner.email, partner.password, { cookies: device }), WINDOW_SECONDS);
    } finally {
      t.clock.reset();
    }
  });
});
