/**
 * A tablet whose session was ended from another device (docs/PRODUCT.md#connected-devices): at its
 * next contact, the refresh or a call's 401 says `session_revoked`, and it signs out as when its
 * session ends: the partner's data leaves, their unsent entries stay, and /login says why until the
 * next sign-in. A session that merely expired says nothing of the kind. The sessions' calls carry the
 * access token on the auth base.
 */
import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/lib/db';
import { readSessionMirror } from '../../../src/lib/session-mirror';
import { demoUser } from '../support/api';
import { freshPage, json, outboxEntry, useTabletNetwork } from '../support/tablet-network';

const REVOKED = { type: 'auth', reason: 'session_revoked', message: 'Cet appareil a été déconnecté' };
const EXPIRED = { type: 'auth', reason: 'session_expired', message: 'Session expirée' };

const network = useTabletNetwork(() => [
  ['POST /api/auth/login', () => json(200, { access_token: 'token-2', user: demoUser })],
]);

type Page = Awaited<ReturnType<typeof freshPage>>;

/** Whether /login says "signed out from another device" on this page. */
function saysSignedOutElsewhere(page: Page): boolean {
  const { result, unmount } = renderHook(() => page.useSignedOutElsewhere());
  const value = result.current;
  unmount();
  return value;
}

/** Signed in, with an entry waiting in the outbox. */
async function signedInWithAnEntry(): Promise<Page> {
  const page = await freshPage();
  await page.establishSession({ access_token: 'token-1', user: demoUser });
  await db.outbox.add(outboxEntry(demoUser.id, 'k-1'));
  return page;
}

describe('a session ended from another device', () => {
  it('signs out at the next partner call, keeps the unsent entries and says why until the next sign-in', async () => {
    network.routes.set('GET /api/partner/statistics', () => json(401, REVOKED));
    network.routes.set('POST /api/auth/refresh', () => json(401, REVOKED));
    const page = await signedInWithAnEntry();
    expect(saysSignedOutElsewhere(page)).toBe(false);

    const result = await page.apiCall('GET partner /statistics');

    expect(result).toMatchObject({ code: 401, error: { reason: 'session_revoked' } });
    expect(network.calls).toEqual(['GET /api/partner/statistics', 'POST /api/auth/refresh']);
    expect(page.getSession()).toMatchObject({ status: 'anonymous', user: null, accessToken: null });
    await vi.waitFor(async () => expect(await db.accounts.count()).toBe(0));
    expect((await db.outbox.toArray()).map((row) => row.key)).toEqual(['k-1']);
    expect(saysSignedOutElsewhere(page)).toBe(true);
    expect(readSessionMirror()).toMatchObject({ account: null, signedOutElsewhere: true });

    // A reload still says it; the next sign-in no more.
    const reloaded = await freshPage();
    expect(saysSignedOutElsewhere(reloaded)).toBe(true);
    await reloaded.establishSession({ access_token: 'token-2', user: demoUser });
    expect(saysSignedOutElsewhere(reloaded)).toBe(false);
    expect(saysSignedOutElsewhere(await freshPage())).toBe(false);
    expect((await db.outbox.toArray()).map((row) => row.key)).toEqual(['k-1']);
  });

  it('signs out when the refresh at start says so', async () => {
    network.routes.set('POST /api/auth/refresh', () => json(401, REVOKED));
    await signedInWithAnEntry();
    const reopened = await freshPage();
    expect(await reopened.ensureSession()).toBe('anonymous');
    expect(saysSignedOutElsewhere(reopened)).toBe(true);
    expect(await db.outbox.count()).toBe(1);
  });

  it('says why even when the refresh that follows the call answers otherwise', async () => {
    // Another context (the service worker's sync) presented the revoked cookie first, and the server cleared it.
    network.routes.set('POST /api/partner/repairs', () => json(401, REVOKED));
    network.routes.set('POST /api/auth/refresh', () => json(401, EXPIRED));
    const page = await signedInWithAnEntry();
    await page.apiCall('POST partner /repairs', { body: {} });
    expect(page.getSession().status).toBe('anonymous');
    expect(saysSignedOutElsewhere(page)).toBe(true);
  });

  it('says why when the service worker’s sync heard it first and the refresh finds no session', async () => {
    // The worker's refresh was told session_revoked (the server cleared the cookie) and parked the entry.
    network.routes.set('POST /api/auth/refresh', () => json(401, EXPIRED));
    await signedInWithAnEntry();
    await db.outbox.update('k-1', {
      state: 'waiting_for_sign_in',
      lastError: { code: 401, reason: 'session_revoked', message: 'Cet appareil a été déconnecté' },
    });
    const reopened = await freshPage();
    expect(await reopened.ensureSession()).toBe('anonymous');
    expect(saysSignedOutElsewhere(reopened)).toBe(true);
    expect(await db.outbox.count()).toBe(1);
  });

  it('is not said when the session merely expired', async () => {
    network.routes.set('GET /api/partner/statistics', () => json(401, EXPIRED));
    network.routes.set('POST /api/auth/refresh', () => json(401, EXPIRED));
    const page = await signedInWithAnEntry();
    // An entry parked by an expired session (not a revoked one) says nothing of another device either.
    await db.outbox.add({
      ...outboxEntry(demoUser.id, 'k-2'),
      state: 'waiting_for_sign_in',
      lastError: { code: 401, reason: 'session_expired', message: 'Session expirée' },
    });
    await page.apiCall('GET partner /statistics');
    expect(page.getSession().status).toBe('anonymous');
    expect(saysSignedOutElsewhere(page)).toBe(false);
    expect(readSessionMirror()?.signedOutElsewhere).toBeFalsy();
    expect(await db.outbox.count()).toBe(2);
  });

  it('is not said when a refresh cures the 401 (the call is made again and the partner stays)', async () => {
    let answered = false;
    network.routes.set('GET /api/partner/statistics', () => {
      if (answered) return json(200, { total: 1, this_month: 0, pending: 0 });
      answered = true;
      return json(401, REVOKED);
    });
    network.routes.set('POST /api/auth/refresh', () => json(200, { access_token: 'token-3', user: demoUser }));
    const page = await signedInWithAnEntry();
    await page.apiCall('GET partner /statistics');
    expect(page.getSession()).toMatchObject({ status: 'authenticated', accessToken: 'token-3' });
    // The refresh cleared the hint: a later plain expiry is no remote sign-out.
    network.routes.set('GET /api/partner/statistics', () => json(401, EXPIRED));
    network.routes.set('POST /api/auth/refresh', () => json(401, EXPIRED));
    await page.apiCall('GET partner /statistics');
    expect(page.getSession().status).toBe('anonymous');
    expect(saysSignedOutElsewhere(page)).toBe(false);
  });
});

describe('the sessions’ calls', () => {
  it('carry the access token on the auth base and refresh it once on a 401', async () => {
    let first = true;
    network.routes.set('GET /api/auth/sessions', () => {
      if (first) {
        first = false;
        return json(401, EXPIRED);
      }
      return json(200, []);
    });
    network.routes.set('POST /api/auth/refresh', () => json(200, { access_token: 'token-3', user: demoUser }));
    const page = await signedInWithAnEntry();
    const result = await page.apiCall('GET auth /sessions', { bearer: true });
    expect(result).toMatchObject({ status: 'success', data: [] });
    expect(network.calls).toEqual(['GET /api/auth/sessions', 'POST /api/auth/refresh', 'GET /api/auth/sessions']);
    expect(network.authorizations).toEqual(['Bearer token-1', null, 'Bearer token-3']);
  });

  it('other auth calls still carry no token', async () => {
    const page = await signedInWithAnEntry();
    await page.apiCall('POST auth /login', { body: {} });
    expect(network.calls).toEqual(['POST /api/auth/login']);
    expect(network.authorizations).toEqual([null]);
  });
});
