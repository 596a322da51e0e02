/**
 * The session gate (docs/PRODUCT.md#the-session-gate): before a route it refreshes the session; an authenticated
 * route without a session goes to /login, a public route with one goes to /, and a failed refresh
 * for lack of network keeps a cached partner signed in (docs/ARCHITECTURE.md#the-offline-model-in-practice).
 */
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../../../contract';
import { writeSessionMirror } from '../../../src/lib/session-mirror';
import { demoUser, failed, offline, ok } from '../support/api';
import { renderWithApp } from '../render';
import { expectVisible } from '../support/dom';
import { emptyTabletStorage } from '../support/tablet-network';

const refreshAnswer = vi.hoisted(() => ({
  current: null as null | (() => ApiResult<unknown> | Promise<ApiResult<unknown>>),
}));

vi.mock('../../../src/lib/api/client', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/lib/api/client')>();
  return {
    ...original,
    apiRequest: vi.fn(async (base: string, path: string) => {
      if (base === 'auth' && path === '/refresh' && refreshAnswer.current) return refreshAnswer.current();
      if (base === 'auth' && path === '/logout/partner')
        return { code: 0, status: 'error', error: { type: 'other', reason: 'network', message: 'offline' } };
      throw new Error(`Unscripted API call: ${base} ${path}`);
    }),
  };
});

/** A partner signed in on this tablet before (the gate only asks the server when one did), as a sign-in leaves it. */
async function rememberSignedInPartner() {
  const { db, writeMeta } = await import('../../../src/lib/db');
  await db.accounts.put({ id: demoUser.id, user: demoUser, signedInAt: '2026-11-20T08:00:00.000Z' });
  await writeMeta('current-account', demoUser.id);
  writeSessionMirror({ account: demoUser });
}

async function freshSessionModule() {
  vi.resetModules();
  return import('../../../src/lib/session');
}

/** The gate of a new page load, with the session module it reads. */
async function freshGate() {
  const session = await freshSessionModule();
  const { SessionGate } = await import('../../../src/app/SessionGate');
  return { SessionGate, session };
}

// Each test is a new page load on a tablet where nobody signed in before, unless it says otherwise.
describe('the session gate', () => {
  beforeEach(async () => {
    refreshAnswer.current = null;
    await emptyTabletStorage();
  });

  it('sends a visitor without a session from an authenticated page to /login', async () => {
    const { SessionGate } = await freshGate();
    refreshAnswer.current = () => failed(401, 'expired');
    const { location } = await renderWithApp(
      <SessionGate area="authenticated">
        <p>tableau</p>
      </SessionGate>,
      { path: '/' },
    );
    await waitFor(() => expect(location.history?.at(-1)).toBe('/login'));
    expect(screen.queryByText('tableau')).toBeNull();
  });

  it('shows the page once the session is known and matches the area', async () => {
    const { SessionGate } = await freshGate();
    refreshAnswer.current = () => failed(401, 'expired');
    await renderWithApp(
      <SessionGate area="public">
        <p>connexion</p>
      </SessionGate>,
      { path: '/login' },
    );
    expectVisible(await screen.findByText('connexion'));
  });

  it('sends a signed-in partner from a public page to /', async () => {
    await rememberSignedInPartner();
    const { SessionGate } = await freshGate();
    refreshAnswer.current = () => ok({ access_token: 'v4.local.token', user: demoUser });
    const { location } = await renderWithApp(
      <SessionGate area="public">
        <p>connexion</p>
      </SessionGate>,
      { path: '/login' },
    );
    await waitFor(() => expect(location.history?.at(-1)).toBe('/'));
  });

  it('shows the protected page as its frame while the session is not known yet: nobody’s data, no detour to /login', async () => {
    await rememberSignedInPartner();
    let answerRefresh: (result: ApiResult<unknown>) => void = () => undefined;
    let refreshAsked = false;
    refreshAnswer.current = () => {
      refreshAsked = true;
      return new Promise((resolve) => (answerRefresh = resolve));
    };
    // A new page load: the session starts unknown until the refresh answers.
    const { SessionGate: Gate, session } = await freshGate();
    const { usePartnerId } = await import('../../../src/lib/partner');
    const statusesWhenRendered: string[] = [];
    // What every partner's data is read for (src/lib/partner.ts).
    function Dashboard() {
      statusesWhenRendered.push(session.getSession().status);
      return <p>tableau de {usePartnerId() ?? 'personne'}</p>;
    }
    const { location } = await renderWithApp(
      <Gate area="authenticated">
        <Dashboard />
      </Gate>,
      { path: '/' },
    );
    await waitFor(() => expect(refreshAsked).toBe(true));
    expect(session.getSession().status).toBe('unknown');
    // The frame, as the prerendered HTML painted it: the page, with nobody's data in it.
    expect(new Set(statusesWhenRendered)).toEqual(new Set(['unknown']));
    expect(screen.getByText('tableau de personne').tagName).toBe('P');
    // Not known is not signed out: the partner is not sent to /login while the refresh is under way.
    expect(location.history).toEqual(['/']);
    expect(screen.queryByLabelText('Chargement…')).toBeNull();

    answerRefresh(ok({ access_token: 'v4.local.token', user: demoUser }));
    expect((await screen.findByText(`tableau de ${demoUser.id}`)).tagName).toBe('P');
    expect(screen.queryByText('tableau de personne')).toBeNull();
    expect(location.history).toEqual(['/']);
  });

  it.each([
    { what: 'cannot reach the server', answer: () => offline() },
    { what: 'is refused for too many refreshes (429)', answer: () => failed(429, 'Trop de tentatives') },
  ])('keeps a cached partner signed in when the refresh $what', async ({ answer }) => {
    await rememberSignedInPartner();
    const session = await freshSessionModule();
    refreshAnswer.current = () => ok({ access_token: 'v4.local.token', user: demoUser });
    expect(await session.refreshSession()).toBe('ok');
    refreshAnswer.current = answer;
    // A new page load: nothing in memory, the partner comes from IndexedDB.
    const reloaded = await freshSessionModule();
    expect(await reloaded.refreshSession()).toBe('offline');
    expect(reloaded.getSession()).toMatchObject({ status: 'authenticated', offline: true, user: { id: demoUser.id } });
  });

  it('never lets a refresh answered after a sign-out sign the partner back in, nor bring their account back', async () => {
    await rememberSignedInPartner();
    const session = await freshSessionModule();
    let answerRefresh: ((result: ApiResult<unknown>) => void) | null = null;
    refreshAnswer.current = () => new Promise((resolve) => (answerRefresh = resolve));
    const refreshing = session.refreshSession();
    await waitFor(() => expect(answerRefresh).not.toBeNull());
    await session.logout();
    answerRefresh!(ok({ access_token: 'v4.local.token', user: demoUser }));
    expect(await refreshing).toBe('unauthorized');
    expect(session.getSession()).toMatchObject({ status: 'anonymous', user: null });
    const { db } = await import('../../../src/lib/db');
    expect(await db.accounts.get(demoUser.id)).toBeUndefined();
  });

  it('signs out only on a 401 from the server', async () => {
    await rememberSignedInPartner();
    const session = await freshSessionModule();
    refreshAnswer.current = () => ok({ access_token: 'v4.local.token', user: demoUser });
    await session.refreshSession();
    refreshAnswer.current = () => failed(401, 'revoked');
    expect(await session.refreshSession()).toBe('unauthorized');
    expect(session.getSession()).toMatchObject({ status: 'anonymous', user: null, accessToken: null });
  });
});
