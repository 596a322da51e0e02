/**
 * What the offline, sync and install/update tests share (docs/ARCHITECTURE.md#the-offline-model-in-practice): a fresh partner per
 * test (so the server's count of their repairs means something), signing in through the form, the
 * service worker taking control, the dashboard's Insert and History, the header's connectivity
 * indicator, the partner's repairs as the server holds them, and a console watch that fails a test
 * on any error it did not expect.
 */
import { afterEach, expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newTabletContext, type TabletContextOptions } from './browser';
import { captureFailedTest } from './failure-capture';
import { selectTab } from './tabs';
import { scaled } from '../../support/host-speed';

export interface Account {
  email: string;
  password: string;
  /** An access token from the registration, for asking the server what it holds. */
  token: string;
}

let accounts = 0;

/**
 * Registers a partner through the API. The server allows 5 registrations per IP and hour, and each
 * test file has its own portal: a file must not register more than 5.
 */
export async function registerPartner(baseUrl: string, tag: string): Promise<Account> {
  accounts += 1;
  const unique = `${Date.now().toString(36)}${accounts}`;
  const email = `${tag}-${unique}@offline.test`;
  const password = `hors-ligne-${unique}`;
  const response = await fetch(`${baseUrl}/api/auth/register/partner`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-origin': baseUrl, 'accept-language': 'fr' },
    body: JSON.stringify({
      email,
      password,
      full_name: `Garage ${tag} ${accounts}`,
      phone_number: '0555123456',
      location: { latitude: 36.7213, longitude: 3.1444 },
      privacy_conditions: true,
    }),
  });
  const body = (await response.json()) as { data?: { access_token?: string } };
  const token = body.data?.access_token;
  if (response.status !== 201 || !token)
    throw new Error(`register ${email}: ${response.status} ${JSON.stringify(body)}`);
  return { email, password, token };
}

export interface StoredRepair {
  id: string;
  vehicle: { kode_id: string };
  repair_type: { id: string };
  odometer: number;
  recorded_at: string;
  created_at: string;
  idempotency_key: string;
  verdict: 'plausible' | 'implausible' | 'no_verdict';
  reasons: string[];
  superseded_by: string | null;
  corrects: string | null;
  correction_reason: string | null;
  photo?: { url: string; bytes: number; width: number; height: number } | null;
}

/** GET /api/partner/repairs with the partner's token: everything the server holds for them. */
export async function serverRepairs(baseUrl: string, account: Account): Promise<StoredRepair[]> {
  const response = await fetch(`${baseUrl}/api/partner/repairs?limit=100`, {
    headers: { authorization: `Bearer ${account.token}`, 'x-origin': baseUrl, accept: 'application/json' },
  });
  const body = (await response.json()) as { status: string; data: StoredRepair[] };
  if (response.status !== 200 || body.status !== 'success') {
    throw new Error(`GET /repairs: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.data;
}

/** Chromium's own line for every failed request: expected offline, and for answers a test provokes. */
/** How long a test waits for the outbox to reach the server (a send, its retries, the history's refresh). */
export const SYNC_TIMEOUT = { timeout: scaled(30_000), interval: 250 };

export const OFFLINE_NOISE = /Failed to load resource: net::ERR_INTERNET_DISCONNECTED/;
/** The session refresh before a public page, without a session cookie, answers 401. */
export const ANONYMOUS_REFRESH = /Failed to load resource: the server responded with a status of 401/;

export interface ConsoleWatch {
  /** Also accept these from now on (a test that provokes a 404 or a lost response). */
  allow(...patterns: RegExp[]): void;
  /** Errors and uncaught exceptions no pattern accepts. */
  unexpected(): string[];
}

/**
 * Records console errors and uncaught exceptions of every page of the context, the ones opened
 * later included. Uncaught exceptions are never accepted.
 */
export function watchConsole(context: BrowserContext, allowed: RegExp[] = [OFFLINE_NOISE, ANONYMOUS_REFRESH]) {
  const patterns = [...allowed];
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      if (!patterns.some((pattern) => pattern.test(text))) errors.push(`${page.url()}: console.error ${text}`);
    });
    page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught ${error.message}`));
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  const result: ConsoleWatch = {
    allow: (...more) => void patterns.push(...more),
    unexpected: () => [...errors],
  };
  return result;
}

/**
 * One tablet context per test, its console watched: `open()` gives the test its context. After each
 * test the context is closed and any console error or uncaught exception it did not allow fails it.
 * Call at the top level of a test file.
 */
export function contextPerTest(browser: () => Browser) {
  const state: { context: BrowserContext | null; console: ConsoleWatch | null } = { context: null, console: null };
  afterEach(async ({ task }) => {
    const unexpected = state.console?.unexpected() ?? [];
    // Pictured before it closes: the failure hook runs after this one.
    if (task.result?.state === 'fail') await captureFailedTest(task);
    await state.context?.close();
    state.context = null;
    state.console = null;
    expect(unexpected, 'console errors').toEqual([]);
  });
  return {
    async open(options?: TabletContextOptions): Promise<BrowserContext> {
      state.context = await newTabletContext(browser(), options);
      state.console = watchConsole(state.context);
      return state.context;
    },
    /** The context of the running test (open() first). */
    get context(): BrowserContext {
      if (!state.context) throw new Error('no context opened in this test');
      return state.context;
    },
    /** Console messages the running test expects. */
    allow(...patterns: RegExp[]): void {
      if (!state.console) throw new Error('no context opened in this test');
      state.console.allow(...patterns);
    },
    /** Watches another context's console too (e.g. a persistent one the test launched itself). */
    watch(context: BrowserContext): void {
      state.console = watchConsole(context);
    },
  };
}

/** Signs in through the login form and waits for the dashboard. */
export async function signIn(page: Page, baseUrl: string, account: { email: string; password: string }) {
  await page.goto(`${baseUrl}/login`);
  await page.locator('input[name="email"]').fill(account.email);
  await page.locator('input[name="password"]').fill(account.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await dashboardHeading(page).waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
}

export function dashboardHeading(page: Page) {
  return page.getByRole('heading', { level: 1, name: 'Tableau de bord – Partenaire Garage' });
}

/**
 * Waits until the service worker is active, loads the page once more and waits until the worker
 * controls it: for tests about a page loaded under the worker (offline reloads, updates). The worker
 * also claims the first page without a reload; first-session.test.ts checks that one.
 */
export async function waitForServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: scaled(15_000) });
}

/**
 * Takes the tablet offline, its service workers too, and waits until a fetch from each worker fails.
 * Playwright applies the emulation to the pages first; while a worker is not offline yet, Chromium may
 * fire a waiting background sync there (an entry recorded "offline" reached the server in a clean-clone
 * run on a slow host).
 */
export async function goOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  for (const worker of context.serviceWorkers()) {
    const reach = () =>
      worker.evaluate(() =>
        fetch('/api/health/live', { cache: 'no-store' }).then(
          () => 'online',
          () => 'offline',
        ),
      );
    await expect.poll(reach, { timeout: scaled(10_000) }).toBe('offline');
  }
}

/** The paths the service worker holds in its precache, as the page sees Cache Storage. */
export function precachedPaths(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      if (!name.startsWith('workbox-precache')) continue;
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
  });
}

/**
 * Cache Storage holds the whole precache (so a reload offline, and any lazy part, can be answered from
 * it). Workbox stores the entries one by one while the worker installs; the worker is active only once
 * all are in, the scanner's 1 MB of WebAssembly included, so both are awaited.
 */
export async function waitForPrecache(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect
    .poll(async () => (await precachedPaths(page)).includes('/index.html'), { timeout: scaled(15_000) })
    .toBe(true);
}

/**
 * The page can lose the network now: the worker's precache is complete and the worker controls the
 * page, so the code of any part it has not loaded yet (the form's lookup and outbox, a dialog) comes
 * from the worker. A page whose network drops before then keeps what was typed and says a part could
 * not load (first-session.test.ts); tests about something else wait for this first.
 */
export async function waitUntilReadyOffline(page: Page) {
  await waitForPrecache(page);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: scaled(15_000) });
}

/** Reloads while offline and checks that the page is the app's, not Chromium's offline page. */
export async function reloadOffline(page: Page) {
  await page.reload();
  expect(await page.title()).toBe('Portail Partenaire Garage');
}

export async function openTab(page: Page, name: 'Nouvelle saisie' | 'Historique' | 'Conseils') {
  await selectTab(page.getByRole('tab', { name }));
}

export interface RepairToRecord {
  kodeId: string;
  odometer: number;
  /** The French name in the select, for instance 'Vidange'. */
  type: string;
  /** Press Find first (a lookup online caches the vehicle for later offline use). */
  find?: boolean;
}

/** The Add repair tab's fields. */
export function repairForm(page: Page) {
  const form = page.getByRole('form', { name: 'Nouvelle saisie' });
  return {
    form,
    kodeId: form.getByLabel('Identifiant du véhicule (KODE ID)'),
    type: form.getByLabel('Type de panne'),
    odometer: form.getByLabel('Kilométrage'),
    consent: form.getByRole('checkbox', { name: 'Je confirme que les informations saisies sont exactes' }),
    find: form.getByRole('button', { name: 'Rechercher' }),
    insert: form.getByRole('button', { name: 'Insérer' }),
  };
}

/** Looks a vehicle up with Find and waits for its VIN in the read-only field. */
export async function findVehicle(page: Page, kodeId: string, vin: string) {
  const fields = repairForm(page);
  await fields.kodeId.fill(kodeId);
  await fields.find.click();
  await expect.poll(() => fields.form.getByLabel('VIN', { exact: true }).inputValue()).toBe(vin);
}

/** Fills in the Add repair tab, consent included, without pressing Insert. */
export async function fillRepairForm(page: Page, repair: RepairToRecord) {
  const fields = repairForm(page);
  await fields.kodeId.fill(repair.kodeId);
  if (repair.find) await fields.find.click();
  // The repair types come from IndexedDB: wait until the option is there.
  await expect.poll(() => fields.type.locator('option', { hasText: repair.type }).count()).toBeGreaterThan(0);
  await fields.type.selectOption({ label: repair.type });
  await fields.odometer.fill(String(repair.odometer));
  // From the keyboard: toasts (bottom corner) may cover the button, and a pointer over a toast keeps it open.
  await fields.consent.press('Space');
  await expect.poll(() => fields.consent.isChecked()).toBe(true);
}

/**
 * Fills in the form and presses Insert; resolves once the form has been reset (the entry is in the
 * outbox, or on the server). Returns the clock readings around the press, to check recorded_at.
 */
export async function recordRepair(page: Page, repair: RepairToRecord): Promise<{ before: number; after: number }> {
  const fields = repairForm(page);
  await fillRepairForm(page, repair);
  const before = Date.now();
  await fields.insert.press('Enter');
  await expect.poll(() => fields.kodeId.inputValue(), { timeout: scaled(15_000) }).toBe('');
  const after = Date.now();
  return { before, after };
}

export interface HistoryRow {
  kodeId: string;
  odometer: string;
  status: string;
  text: string;
}

/**
 * The History tab's entries as the mechanic sees them (the tab must be open): the table's rows on a
 * landscape tablet, the cards on a portrait one (docs/PRODUCT.md#history-tab). In both, an entry's
 * first left-to-right text is its identifier, and its reading the isolated text (a bdi) that ends in
 * the unit ('km', 'كم' in Arabic).
 */
export async function historyRows(page: Page): Promise<HistoryRow[]> {
  const rows = page.locator('table tbody tr[data-status], ul > li[data-status]');
  return rows.evaluateAll((elements) =>
    elements.map((row) => {
      const texts = (selector: string) =>
        Array.from(row.querySelectorAll(selector)).map((value) => (value as HTMLElement).innerText.trim());
      const kodeId = texts('[dir="ltr"]')[0];
      const odometer = texts('bdi').find((text) => /\d\s*(km|كم)$/.test(text));
      return {
        kodeId: kodeId ?? '',
        odometer: odometer ?? '',
        status: row.getAttribute('data-status') ?? '',
        text: (row as HTMLElement).innerText,
      };
    }),
  );
}

/** The header's indicator: data-online and its one-sentence accessible name. */
export async function indicator(page: Page): Promise<{ online: boolean; label: string }> {
  const status = page.locator('[role="status"][data-online]');
  return {
    online: (await status.getAttribute('data-online')) === 'true',
    label: (await status.getAttribute('aria-label')) ?? '',
  };
}

/** The number of entries the indicator says are waiting (0 when it names none). */
export function waitingIn(label: string): number {
  const match = /(\d+) saisies? en attente d['’]envoi/.exec(label);
  return match ? Number(match[1]) : 0;
}

export interface RepairPost {
  /** The Idempotency-Key header. */
  key: string;
  /** The body sent: recorded_at is fixed at Insert. */
  body: { kode_id: string; odometer: number; recorded_at: string };
  /** Epoch milliseconds when fetch was called and when it settled. */
  start: number;
  end: number | null;
  /** The HTTP status, or null when fetch failed (no answer reached the page). */
  status: number | null;
  error: string | null;
}

declare global {
  interface Window {
    __repairPosts?: RepairPost[];
  }
}

/**
 * Watches every POST /api/partner/repairs the pages of this context make, from inside the page:
 * its key and body, when it started and settled, and what came back. Installed before any script
 * of the app runs (init script); the records live until the page reloads.
 */
export async function watchRepairPosts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const posts: RepairPost[] = [];
    window.__repairPosts = posts;
    const original = window.fetch.bind(window);
    const now = () => performance.timeOrigin + performance.now();
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), location.href);
      const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
      if (method !== 'POST' || url.pathname !== '/api/partner/repairs') return original(input, init);
      const headers = new Headers(init?.headers);
      const post: RepairPost = {
        key: headers.get('Idempotency-Key') ?? '',
        body: JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as RepairPost['body'],
        start: now(),
        end: null,
        status: null,
        error: null,
      };
      posts.push(post);
      try {
        const response = await original(input, init);
        post.status = response.status;
        return response;
      } catch (error) {
        post.error = error instanceof Error ? error.message : String(error);
        throw error;
      } finally {
        post.end = now();
      }
    };
  });
}

export function repairPosts(page: Page): Promise<RepairPost[]> {
  return page.evaluate(() => window.__repairPosts ?? []);
}

/** Every store of the tablet's database, read from the page. */
export function readTabletDatabase(page: Page): Promise<Record<string, unknown[]>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, unknown[]>>((resolve, reject) => {
        const open = indexedDB.open('garage-portal');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const database = open.result;
          const names = Array.from(database.objectStoreNames);
          const tx = database.transaction(names, 'readonly');
          const dump: Record<string, unknown[]> = {};
          for (const name of names) {
            const request = tx.objectStore(name).getAll();
            request.onsuccess = () => (dump[name] = request.result as unknown[]);
          }
          tx.oncomplete = () => {
            database.close();
            resolve(dump);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}
