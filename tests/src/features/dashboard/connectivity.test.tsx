import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserMenu } from '../../../../src/app/layouts/UserMenu';
import { ConnectivityIndicator } from '../../../../src/features/sync/components/ConnectivityIndicator';
import { db, type OutboxEntry } from '../../../../src/lib/db';
import { getSession } from '../../../../src/lib/session';
import { getSyncEngine } from '../../../../src/lib/entries';
import { renderWithApp } from '../../render';
import { expectVisible } from '../../support/dom';
import { FakeApi, ok, partner, resetPortal, setOnline, signIn } from './support';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

const api = new FakeApi();

function entry(n: number, state: OutboxEntry['state'], partnerId = partner.id): OutboxEntry {
  return {
    key: `00000000-0000-4000-8000-00000000000${n}`,
    partnerId,
    entry: {
      kode_id: 'KODE000001',
      odometer: 1000 * n,
      repair_type_id: 'rt-oil',
      consented: true,
      note: '',
      recorded_at: '2025-03-01T10:00:00.000Z',
    },
    state,
    seq: n,
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: '2025-03-01T10:00:00.000Z',
  };
}

beforeEach(async () => {
  await resetPortal();
  api.reset();
  api.install();
  api.on('POST /logout/partner', () => ok(null));
  await signIn();
});

afterEach(async () => {
  setOnline(true);
  await getSyncEngine().idle();
});

describe('connectivity indicator', () => {
  it('says online or offline and how many entries wait', async () => {
    await renderWithApp(<ConnectivityIndicator />);
    expect(screen.getByRole('status', { name: 'En ligne' }).dataset.online).toBe('true');
    await db.outbox.bulkAdd([entry(1, 'queued'), entry(2, 'waiting_for_sign_in'), entry(3, 'queued', 'someone-else')]);
    expect((await screen.findByRole('status', { name: "En ligne, 2 saisies en attente d'envoi" })).dataset.online).toBe(
      'true',
    );
    setOnline(false);
    expect(
      (await screen.findByRole('status', { name: "Hors ligne, 2 saisies en attente d'envoi" })).dataset.online,
    ).toBe('false');
    await db.outbox.delete(entry(2, 'queued').key);
    await db.outbox.add(entry(4, 'refused'));
    expect(
      (await screen.findByRole('status', { name: "Hors ligne, 1 saisie en attente d'envoi, 1 saisie refusée" })).dataset
        .online,
    ).toBe('false');
  });
});

describe('signing out with entries waiting', () => {
  // The menu is driven by keyboard here: in jsdom, Zag's menu stops reacting to pointer clicks on its items
  // after earlier tests in the same file have used menus and dialogs (a test-environment quirk).
  /** Chooses "Se déconnecter" in the account menu with the keyboard. */
  async function chooseSignOut(user: ReturnType<typeof userEvent.setup>) {
    await user.click(screen.getByRole('button', { name: /Menu du compte$/ }));
    const signOut = await screen.findByRole('menuitem', { name: 'Se déconnecter' });
    // The keys go to the open menu: a loaded machine (CI) may move the focus there a moment later.
    await waitFor(() => expect(document.activeElement?.getAttribute('role')).toBe('menu'));
    // Down until the item is highlighted, rather than a count of presses: on a loaded machine a press
    // could come before the menu took the previous one, and Enter then chose the profile.
    await waitFor(async () => {
      if (!signOut.hasAttribute('data-highlighted')) await user.keyboard('{ArrowDown}');
      expect(signOut.hasAttribute('data-highlighted')).toBe(true);
    });
    await user.keyboard('{Enter}');
  }

  async function askToSignOut(user: ReturnType<typeof userEvent.setup>) {
    await chooseSignOut(user);
    return screen.findByRole('alertdialog', { name: 'Se déconnecter ?' });
  }

  it('says that they stay on the tablet; staying signed in keeps everything', async () => {
    await db.outbox.bulkAdd([entry(1, 'queued'), entry(2, 'queued'), entry(3, 'refused')]);
    const user = userEvent.setup();
    const { location } = await renderWithApp(<UserMenu />, { path: '/' });
    const dialog = await askToSignOut(user);
    expectVisible(
      within(dialog).getByText(
        "2 saisies attendent d'être envoyées. Elles restent sur cette tablette et partiront à votre prochaine connexion.",
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Rester connecté' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(getSession().status).toBe('authenticated');
    expect(location.history).toEqual(['/']);
    expect(api.calls).toEqual([]);
  });

  it('signing out anyway keeps the entries for the next sign-in', async () => {
    await db.outbox.bulkAdd([entry(1, 'queued')]);
    const user = userEvent.setup();
    const { location } = await renderWithApp(<UserMenu />, { path: '/' });
    const dialog = await askToSignOut(user);
    expectVisible(
      within(dialog).getByText(
        "1 saisie attend d'être envoyée. Elle reste sur cette tablette et partira à votre prochaine connexion.",
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Se déconnecter' }));
    await waitFor(() => expect(location.history?.at(-1)).toBe('/login'));
    expect(getSession().status).toBe('anonymous');
    expect(await db.outbox.count()).toBe(1);
  });

  it('signs out at once when nothing waits', async () => {
    const user = userEvent.setup();
    const { location } = await renderWithApp(<UserMenu />, { path: '/' });
    await chooseSignOut(user);
    await waitFor(() => expect(location.history?.at(-1)).toBe('/login'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
