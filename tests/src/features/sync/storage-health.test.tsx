/**
 * Storage health where the mechanic sees the pending count (docs/ARCHITECTURE.md#storage-health):
 * the browser's Storage API is stubbed as each browser answers it.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectVisible } from '../../support/dom';

const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPAD_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const MB = 2 ** 20;

interface StubbedStorage {
  persisted: ReturnType<typeof vi.fn<() => Promise<boolean>>>;
  persist: ReturnType<typeof vi.fn<() => Promise<boolean>>>;
  estimate: ReturnType<typeof vi.fn<() => Promise<StorageEstimate>>>;
}

interface StorageState {
  persisted: boolean;
  grants?: boolean;
  usage?: number;
  quota?: number;
}

function stubStorage(state: StorageState): StubbedStorage {
  const storage: StubbedStorage = {
    persisted: vi.fn(async () => state.persisted),
    persist: vi.fn(async () => {
      if (state.grants) state.persisted = true;
      return state.grants ?? false;
    }),
    estimate: vi.fn(async () => ({ usage: state.usage ?? 5 * MB, quota: state.quota ?? 1000 * MB })),
  };
  Object.defineProperty(navigator, 'storage', { configurable: true, value: storage });
  return storage;
}

function statusButton(): HTMLElement {
  // hidden: true, as the open panel hides the page behind it from assistive technology.
  return screen.getByRole('button', { name: /détails de l'envoi/, hidden: true });
}

/**
 * The portal's modules as a new start loads them, the partner signed in: persistent storage is asked
 * for once per start, so each test is a start of its own, whatever order the tests run in.
 */
async function newStart() {
  vi.resetModules();
  const [indicator, alerts, pwa, render, api, dashboard] = await Promise.all([
    import('../../../../src/features/sync/components/ConnectivityIndicator'),
    import('../../../../src/features/sync/components/SyncAlerts'),
    import('../../../../src/lib/pwa'),
    import('../../render'),
    import('../../support/api'),
    import('../dashboard/support'),
  ]);
  await dashboard.resetPortal();
  await dashboard.signIn();
  return {
    ConnectivityIndicator: indicator.ConnectivityIndicator,
    SyncAlerts: alerts.SyncAlerts,
    keepInstallOffer: pwa.keepInstallOffer,
    renderWithApp: render.renderWithApp,
    expectToast: api.expectToast,
  };
}

let app: Awaited<ReturnType<typeof newStart>>;

beforeEach(async () => {
  // jsdom calls itself AppleWebKit without Chrome: a tablet's Chromium, unless a test says otherwise.
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(CHROME_ANDROID);
  app = await newStart();
});

afterEach(() => {
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'storage');
});

describe('storage health', () => {
  it('not persistent: asked once at start, marked on the status, explained and asked again from the panel', async () => {
    const state: StorageState = { persisted: false, grants: false };
    const storage = stubStorage(state);
    await app.renderWithApp(<app.ConnectivityIndicator />);
    await waitFor(() => expect(statusButton().dataset.storageRisk).toBe('true'));
    expect(storage.persist).toHaveBeenCalledTimes(1);
    expect(statusButton().getAttribute('aria-label')).toBe(
      "En ligne, stockage de la tablette à risque, détails de l'envoi",
    );

    await userEvent.click(statusButton());
    const panel = await screen.findByRole('dialog', { name: 'Envoi des saisies' });
    expectVisible(
      await within(panel).findByText(
        'Non protégé : le navigateur peut effacer les saisies en attente s’il manque de place.',
      ),
    );
    expectVisible(within(panel).getByText('Aucune saisie en attente d’envoi.'));
    await userEvent.click(within(panel).getByRole('button', { name: 'Protéger le stockage' }));
    await app.expectToast({
      type: 'warning',
      title: 'Le navigateur n’a pas accordé la protection',
      description: 'Installez le portail sur l’écran d’accueil : le navigateur protège alors son stockage.',
    });
    expect(storage.persist).toHaveBeenCalledTimes(2);

    state.grants = true;
    await userEvent.click(within(panel).getByRole('button', { name: 'Protéger le stockage' }));
    expectVisible(
      await within(panel).findByText('Protégé : le navigateur garde les saisies jusqu’à ce qu’on efface ses données.'),
    );
    expect(statusButton().dataset.storageRisk).toBe('false');
  });

  it('says the risk in words beside the sign (shown from 1024 px wide): which risk, and none without one', async () => {
    const words = () => document.querySelector('[data-testid="storage-risk-words"]')?.textContent ?? null;
    stubStorage({ persisted: false, grants: false });
    const first = await app.renderWithApp(<app.ConnectivityIndicator />);
    await waitFor(() => expect(words()).toBe('Stockage non protégé'));
    first.unmount();

    stubStorage({ persisted: true, usage: 850 * MB, quota: 1000 * MB });
    const second = await app.renderWithApp(<app.ConnectivityIndicator />);
    await waitFor(() => expect(words()).toBe('Stockage presque plein'));
    second.unmount();

    stubStorage({ persisted: true, usage: 12 * MB, quota: 2048 * MB });
    await app.renderWithApp(<app.ConnectivityIndicator />);
    await waitFor(() => expect(statusButton().dataset.storageRisk).toBe('false'));
    expect(words()).toBeNull();
  });

  it('persistent: no mark, and the panel says the entries are kept and how full storage is', async () => {
    stubStorage({ persisted: true, usage: 12 * MB, quota: 2048 * MB });
    await app.renderWithApp(<app.ConnectivityIndicator />);
    await userEvent.click(statusButton());
    const panel = await screen.findByRole('dialog', { name: 'Envoi des saisies' });
    expectVisible(
      await within(panel).findByText('Protégé : le navigateur garde les saisies jusqu’à ce qu’on efface ses données.'),
    );
    expectVisible(within(panel).getByText(/^12\sMo utilisés sur 2\sGo \(1 %\)$/));
    expect(statusButton().dataset.storageRisk).toBe('false');
  });

  it('from 80 % full, a warning above the screen says how full and what to do', async () => {
    stubStorage({ persisted: true, usage: 850 * MB, quota: 1000 * MB });
    await app.renderWithApp(<app.SyncAlerts />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(
      /^Stockage de la tablette presque plein85 % utilisés \(850\sMo sur 1\s000\sMo\)\./,
    );
  });

  it('below 80 % and persistent, nothing above the screen', async () => {
    const storage = stubStorage({ persisted: true, usage: 790 * MB, quota: 1000 * MB });
    await app.renderWithApp(<app.SyncAlerts />);
    await waitFor(() => expect(storage.estimate).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a browser that deletes an uninstalled site asks for the home screen before any offline entry', async () => {
    stubStorage({ persisted: true });
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPAD_SAFARI);
    await app.renderWithApp(<app.SyncAlerts />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Installez le portail avant de saisir hors ligne');
    expect(alert.textContent).toContain('Dans Safari : bouton Partager, puis « Sur l’écran d’accueil ».');
  });

  it('the same browser, opened from the home screen, has nothing to ask', async () => {
    const storage = stubStorage({ persisted: true });
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPAD_SAFARI);
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query) => ({ matches: query === '(display-mode: standalone)', media: query }) as MediaQueryList,
    );
    await app.renderWithApp(<app.SyncAlerts />);
    await waitFor(() => expect(storage.estimate).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('where Chromium offers to install the portal, the panel offers it; the browser asks, then the offer is gone', async () => {
    stubStorage({ persisted: false });
    app.keepInstallOffer();
    await app.renderWithApp(<app.ConnectivityIndicator />);
    await userEvent.click(statusButton());
    const panel = await screen.findByRole('dialog', { name: 'Envoi des saisies' });
    expect(within(panel).queryByRole('button', { name: 'Installer le portail' })).toBeNull();

    const prompt = vi.fn(async () => undefined);
    const offer = Object.assign(new Event('beforeinstallprompt'), {
      prompt,
      userChoice: Promise.resolve({ outcome: 'accepted' as const }),
    });
    window.dispatchEvent(offer);
    await userEvent.click(expectVisible(await within(panel).findByRole('button', { name: 'Installer le portail' })));
    expect(prompt).toHaveBeenCalledTimes(1);
    // An offer is used once: the browser makes a new one if the mechanic may install again.
    await waitFor(() => expect(within(panel).queryByRole('button', { name: 'Installer le portail' })).toBeNull());

    window.dispatchEvent(
      Object.assign(new Event('beforeinstallprompt'), { prompt, userChoice: new Promise(() => {}) }),
    );
    await within(panel).findByRole('button', { name: 'Installer le portail' });
    window.dispatchEvent(new Event('appinstalled'));
    await waitFor(() => expect(within(panel).queryByRole('button', { name: 'Installer le portail' })).toBeNull());
  });
});
