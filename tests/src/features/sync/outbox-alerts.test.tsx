/**
 * The banner above the signed-in screens (docs/ARCHITECTURE.md#entries-that-need-the-mechanic): an
 * entry unsent for more than 24 hours in this outbox, refused, or waiting for a sign-in is named, with
 * why and the action that clears it. The clock is faked (Date and the minute's interval only: IndexedDB
 * keeps its real timers).
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SyncAlerts } from '../../../../src/features/sync/components/SyncAlerts';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { db } from '../../../../src/lib/db';
import { getSession } from '../../../../src/lib/session';
import { renderWithApp } from '../../render';
import { expectVisible } from '../../support/dom';
import { offline, queuedEntry, useDashboardSetting } from '../dashboard/support';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

const api = useDashboardSetting();

const HOUR = 60 * 60 * 1000;
const NOW = new Date('2026-11-23T10:00:00.000Z').getTime();
const KEY = '00000000-0000-4000-8000-0000000000a1';
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/**
 * For the 24-hour tests: the date, and the minute's interval that reads it again. Testing Library's
 * waitFor then polls only on DOM changes (its interval is faked too), which is what these tests await.
 */
function fakeClock() {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: NOW });
}

afterEach(() => {
  vi.useRealTimers();
});

/** Lets the live query answer, on IndexedDB's real timers. */
async function settle() {
  await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
}

/** The minute's timer fires as the clock moves on. */
function advance(ms: number) {
  act(() => void vi.advanceTimersByTime(ms));
}

function banner(kind: string): HTMLElement | null {
  return document.querySelector(`[data-attention="${kind}"]`);
}

const text = (element: HTMLElement | null) => (element?.textContent ?? '').replace(/\s+/g, ' ');

describe('entries that need the mechanic', () => {
  it('unsent for 23 hours: nothing; past 24 hours: named, with no connection since, until Send now clears it', async () => {
    fakeClock();
    const created = ago(23 * HOUR);
    await db.outbox.add(queuedEntry(KEY, 1, 'queued', created, 120_500));
    await renderWithApp(<SyncAlerts />);
    await settle();
    expect(banner('stale')).toBeNull();

    advance(2 * HOUR);
    await waitFor(() => expect(banner('stale')).not.toBeNull());
    const alert = banner('stale')!;
    expect(alert.getAttribute('role')).toBe('alert');
    expect(text(alert)).toContain('1 saisie non envoyée depuis plus de 24 h');
    expect(text(alert)).toContain(`Pas de connexion depuis le ${localDateTime(created)}.`);
    expect(text(alert)).toMatch(/KODE000001 · 120.500 km · /);
    expect(text(alert)).toContain(`· ${localDateTime(created)}`);

    await userEvent.click(within(alert).getByRole('button', { name: 'Envoyer maintenant' }));
    await waitFor(() => expect(banner('stale')).toBeNull());
    expect(api.posted.map((post) => post.key)).toEqual([KEY]);
    expect(await db.outbox.count()).toBe(0);
  });

  it("an entry the server keeps failing says so, with the server's words; offline, no Send now", async () => {
    fakeClock();
    await db.outbox.add(
      queuedEntry(KEY, 1, 'queued', ago(30 * HOUR), 98_000, {
        attempts: 9,
        nextAttemptAt: NOW + 60_000,
        lastError: { code: 503, message: 'Service momentanément indisponible' },
      }),
    );
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    await renderWithApp(<SyncAlerts />);
    await waitFor(() => expect(banner('stale')).not.toBeNull());
    expect(text(banner('stale'))).toContain(
      'Le serveur ne les a pas enregistrées : Service momentanément indisponible',
    );
    expect(within(banner('stale')!).queryByRole('button', { name: 'Envoyer maintenant' })).toBeNull();
    expectVisible(within(banner('stale')!).getByRole('button', { name: 'Exporter' }));
  });

  it("refused: named at once with the server's reason; Correct opens the history, where it is corrected", async () => {
    api.on('POST /repairs', () => offline());
    await db.outbox.add(
      queuedEntry(KEY, 1, 'refused', ago(5 * 60_000), 75_000, {
        lastError: { code: 400, message: 'Veuillez saisir un kilometrage valide' },
      }),
    );
    await renderWithApp(
      <>
        <SyncAlerts />
        <DashboardPage />
      </>,
    );
    await waitFor(() => expect(banner('rejected')).not.toBeNull());
    const alert = banner('rejected')!;
    expect(text(alert)).toContain('1 saisie refusée par le serveur');
    expect(text(alert)).toMatch(/KODE000001 · 75.000 km · .* — Veuillez saisir un kilometrage valide/);
    expect(screen.getByRole('tab', { name: 'Historique' }).getAttribute('aria-selected')).toBe('false');

    await userEvent.click(within(alert).getByRole('link', { name: 'Corriger' }));
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Historique' }).getAttribute('aria-selected')).toBe('true'),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Abandonner la saisie KODE000001' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Abandonner' }));
    await waitFor(() => expect(banner('rejected')).toBeNull());
  });

  it('waiting for a sign-in: named at once, the session ended; Sign in again leads to the login', async () => {
    await db.outbox.add(queuedEntry(KEY, 1, 'waiting_for_sign_in', ago(60_000), 64_000));
    const { location } = await renderWithApp(<SyncAlerts />);
    await waitFor(() => expect(banner('waiting_for_sign_in')).not.toBeNull());
    expect(text(banner('waiting_for_sign_in'))).toContain('1 saisie en attente de connexion au compte');
    expect(text(banner('waiting_for_sign_in'))).toContain('La session a pris fin : reconnectez-vous pour les envoyer.');

    await userEvent.click(screen.getByRole('button', { name: 'Se reconnecter' }));
    await waitFor(() => expect(location.history?.at(-1)).toBe('/login'));
    expect(getSession().status).toBe('anonymous');
    await waitFor(() => expect(banner('waiting_for_sign_in')).toBeNull());
    // The entry stays on the tablet, for the next sign-in.
    expect((await db.outbox.get(KEY))?.state).toBe('waiting_for_sign_in');
  });
});

/** DD/MM/YYYY HH:mm in the tablet's time zone, as the app shows dates. */
function localDateTime(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
