/**
 * The sessions table does not grow for ever (docs/API.md#sessions): a row expired a day ago or more,
 * or rotated past the grace window, is deleted at its family's next rotation, and at its partner's next
 * sign-in (the families of tablets no longer used). The token just before the live one presented again
 * is still theft (its successor tells it), and a tablet signed out from elsewhere is still told so.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessions } from '../../../server/db/schema';
import { EXPIRED_ROWS_KEPT_MS, ROTATION_GRACE_MS, SESSION_TTL_MS } from '../../../server/services/sessions';
import { createPartner, type TestPartner } from '../../support/partners';
import { call, createTestApp, type TestApp } from '../../support/test-app';
import { expectError, PROXY_ENV, refresh, refreshCookie, sessionRow, signInTokens } from './helpers';

const HOUR = 60 * 60 * 1000;

describe('expired session rows', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: PROXY_ENV });
  });
  afterAll(() => t.close());

  const rowsOfFamily = (familyId: string) => t.app.db.select().from(sessions).where(eq(sessions.family_id, familyId));
  const rowsOfPartner = (partner: TestPartner) =>
    t.app.db.select().from(sessions).where(eq(sessions.user_id, partner.id));
  const familyOf = async (token: string) => (await sessionRow(t.app, token))?.family_id ?? '';

  /** Refreshes with `token`, expecting a new one. */
  async function rotate(token: string): Promise<string> {
    const res = await refresh(t.app, token);
    expect(res.statusCode).toBe(200);
    return refreshCookie(res).value;
  }

  const logout = (token: string) =>
    call(t.app, 'POST', '/api/auth/logout/partner', { cookies: { refresh_token: token } });

  it('go at the next rotation once expired a day, or rotated past the grace window; a repeat still theft', async () => {
    expect(SESSION_TTL_MS).toBe(12 * HOUR);
    expect(EXPIRED_ROWS_KEPT_MS).toBe(24 * HOUR);
    const partner = await createPartner(t.app);
    // A tablet used every ten hours: each refresh renews the 12-hour lifetime, in the same family.
    const tokens = [(await signInTokens(t.app, partner)).refresh];
    const family = await familyOf(tokens[0]!);
    for (let step = 0; step < 4; step++) {
      t.clock.advance(10 * HOUR);
      tokens.push(await rotate(tokens.at(-1)!));
    }
    // Only the live row and the one rotated just now are kept.
    expect(await rowsOfFamily(family)).toHaveLength(2);
    expect(await sessionRow(t.app, tokens[2]!)).toBeUndefined();
    expect(await sessionRow(t.app, tokens[3]!)).toMatchObject({ family_id: family });

    // A token three rotations old (its successor's row gone too) is only unknown: refused as expired,
    // and the family goes on.
    expectError(await refresh(t.app, tokens[1]), 401, 'auth', 'session_expired');
    t.clock.advance(ROTATION_GRACE_MS + 1_000);
    const next = await rotate(tokens.at(-1)!);
    expect(await sessionRow(t.app, tokens[3]!)).toBeUndefined();
    // A token whose row is gone but whose successor's is kept is told by it: theft, the family revoked.
    expectError(await refresh(t.app, tokens[3]), 401, 'auth', 'session_revoked');
    expectError(await refresh(t.app, next), 401, 'auth', 'session_revoked');
  });

  it('a family refreshing all day keeps two rows, not one per refresh', async () => {
    const partner = await createPartner(t.app);
    let token = (await signInTokens(t.app, partner)).refresh;
    const family = await familyOf(token);
    for (let step = 0; step < 12; step++) {
      t.clock.advance(15 * 60 * 1000);
      token = await rotate(token);
    }
    expect(await rowsOfFamily(family)).toHaveLength(2);
  });

  it('go at the partner’s next sign-in: families no longer used, signed out or not, and nobody else’s', async () => {
    const partner = await createPartner(t.app);
    const other = await createPartner(t.app);
    const abandoned = await signInTokens(t.app, partner);
    const signedOut = await signInTokens(t.app, partner);
    expect((await logout(signedOut.refresh)).statusCode).toBe(200);
    const othersTablet = await signInTokens(t.app, other);
    const before = (await rowsOfPartner(partner)).length;

    // A day after they expired, a tablet signed out just now and still told so.
    t.clock.advance(SESSION_TTL_MS + EXPIRED_ROWS_KEPT_MS);
    const recentlySignedOut = await signInTokens(t.app, partner);
    expect((await logout(recentlySignedOut.refresh)).statusCode).toBe(200);
    const today = await signInTokens(t.app, partner);

    // Two rows went, two came.
    const kept = (await rowsOfPartner(partner)).map((row) => row.family_id);
    expect(kept).toHaveLength(before);
    expect(kept).toContain(await familyOf(recentlySignedOut.refresh));
    expect(kept).toContain(await familyOf(today.refresh));
    expect(await sessionRow(t.app, abandoned.refresh)).toBeUndefined();
    expect(await sessionRow(t.app, signedOut.refresh)).toBeUndefined();
    expectError(await refresh(t.app, recentlySignedOut.refresh), 401, 'auth', 'session_revoked');
    // The other partner's expired rows wait for that partner's own sign-in.
    expect(await sessionRow(t.app, othersTablet.refresh)).toMatchObject({ user_id: other.id });
  });

  it('a family in use is never touched, however old its sign-in', async () => {
    // Forty refreshes: seconds apart on the real clock too, as the refresh limit counts by it.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      const partner = await createPartner(t.app);
      let token = (await signInTokens(t.app, partner, { rememberMe: true })).refresh;
      const family = await familyOf(token);
      // Refreshed once a day for 40 days.
      for (let day = 0; day < 40; day++) {
        t.clock.advance(24 * HOUR);
        vi.setSystemTime(Date.now() + 3_000);
        token = await rotate(token);
      }
      await signInTokens(t.app, partner);
      // Its live row stays, beside the one rotated within the grace window.
      const rows = await rowsOfFamily(family);
      expect(rows).toHaveLength(2);
      expect(rows.filter((row) => row.rotated_at === null && row.revoked_at === null)).toHaveLength(1);
      expect((await refresh(t.app, token)).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});
