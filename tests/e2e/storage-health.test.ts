/**
 * Storage health in Chromium (docs/ARCHITECTURE.md#storage-health): the Storage API is stubbed in the
 * page as each browser would answer it, and the header, the warnings above the screen and the sending
 * panel say what it means.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { contextPerTest, registerPartner, signIn, type Account } from './support/offline';
import { useE2eSetting } from './support/setting';

const e2e = useE2eSetting();
const tablet = contextPerTest(() => e2e.browser);

/**
 * One partner for every test, registered once: what they check is the tablet's (stubbed) storage, not
 * the account, which records nothing. A registration per sign-in took the file to the server's 5 per
 * address and hour with one retry. It signs in 4 times a pass: within 10 per 15 minutes with retries.
 */
let partner: Account;
beforeAll(async () => {
  partner = await registerPartner(e2e.portal.url, 'storage');
});

const IPAD_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

interface Browserish {
  persisted: boolean;
  usage: number;
  quota: number;
  userAgent?: string;
  standalone?: boolean;
}

/** What the page's navigator says of storage (and, for WebKit, of itself) from its first script on. */
async function stubBrowser(context: BrowserContext, stub: Browserish) {
  await context.addInitScript((stub: Browserish) => {
    const calls = { persist: 0 };
    Object.assign(window, { storageCalls: calls });
    Object.defineProperty(navigator, 'storage', {
      configurable: true,
      value: {
        persisted: async () => stub.persisted,
        persist: async () => {
          calls.persist += 1;
          return false;
        },
        estimate: async () => ({ usage: stub.usage, quota: stub.quota }),
        getDirectory: () => Promise.reject(new Error('not stubbed')),
      },
    });
    if (stub.userAgent) Object.defineProperty(Navigator.prototype, 'userAgent', { get: () => stub.userAgent });
    if (stub.standalone) {
      const real = window.matchMedia.bind(window);
      window.matchMedia = (query: string) =>
        query === '(display-mode: standalone)' ? ({ ...real(query), matches: true } as MediaQueryList) : real(query);
    }
  }, stub);
}

async function signedIn(stub: Browserish): Promise<Page> {
  const context = await tablet.open();
  await stubBrowser(context, stub);
  const page = await context.newPage();
  await signIn(page, e2e.portal.url, partner);
  return page;
}

const statusButton = (page: Page) => page.getByRole('button', { name: /détails de l'envoi/ });
const persistCalls = (page: Page) =>
  page.evaluate(() => (window as unknown as { storageCalls: { persist: number } }).storageCalls.persist);

describe('storage health', () => {
  it('not persistent and 85 % full: marked, warned above the screen, explained and asked again', async () => {
    const page = await signedIn({ persisted: false, usage: 850 * 2 ** 20, quota: 1000 * 2 ** 20 });
    await expect.poll(() => statusButton(page).getAttribute('data-storage-risk')).toBe('true');
    const warning = page.getByRole('alert').filter({ hasText: 'Stockage de la tablette presque plein' });
    await warning.waitFor();
    expect((await warning.textContent())?.replace(/\s+/g, ' ')).toContain('85 % utilisés (850 Mo sur 1 000 Mo)');
    expect(await persistCalls(page)).toBe(1);

    await statusButton(page).click();
    const panel = page.getByRole('dialog', { name: 'Envoi des saisies' });
    await panel
      .getByText('Non protégé : le navigateur peut effacer les saisies en attente s’il manque de place.')
      .waitFor();
    await panel.getByRole('button', { name: 'Protéger le stockage' }).click();
    await page.getByText('Le navigateur n’a pas accordé la protection').waitFor();
    expect(await persistCalls(page)).toBe(2);
  });

  it('persistent with room to spare: no mark, no warning, and the panel says the entries are kept', async () => {
    const page = await signedIn({ persisted: true, usage: 12 * 2 ** 20, quota: 2 ** 31 });
    await expect.poll(() => statusButton(page).getAttribute('data-storage-risk')).toBe('false');
    await statusButton(page).click();
    const panel = page.getByRole('dialog', { name: 'Envoi des saisies' });
    await panel.getByText('Protégé : le navigateur garde les saisies jusqu’à ce qu’on efface ses données.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await persistCalls(page)).toBe(0);
  });

  it('Safari not installed is asked to install before the first offline entry; from the home screen it is not', async () => {
    const quiet = { persisted: true, usage: 1, quota: 2 ** 31, userAgent: IPAD_SAFARI };
    const page = await signedIn(quiet);
    const install = page.getByRole('alert').filter({ hasText: 'Installez le portail avant de saisir hors ligne' });
    await install.waitFor();
    expect(await install.textContent()).toContain('Dans Safari : bouton Partager, puis « Sur l’écran d’accueil ».');
    await tablet.context.close();

    const installed = await signedIn({ ...quiet, standalone: true });
    await expect.poll(() => statusButton(installed).getAttribute('data-storage-risk')).toBe('false');
    expect(await installed.getByRole('alert').count()).toBe(0);
  });
});
