/**
 * Page actions and checks the portal's journey, accessibility and screenshot tests share: signing
 * in and out, registering, switching language and theme, toasts, and the console watch that fails
 * a test on CSP violations and React errors.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { PROJECT_ROOT } from './paths';
import { selectTab } from './tabs';
import { scaled } from '../../support/host-speed';

export interface PartnerAccount {
  full_name: string;
  email: string;
  password: string;
  /** As stored: 0 then the digits. */
  phone_number: string;
  location: { latitude: number; longitude: number };
}

let partnerCount = 0;

/** A partner no other test knows, so tests can register and change it freely. */
export function newPartner(tag: string): PartnerAccount {
  partnerCount += 1;
  const unique = `${Date.now().toString(36)}${partnerCount}`;
  return {
    full_name: `Garage ${tag} ${partnerCount}`,
    email: `${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${unique}@garage.test`,
    password: `motdepasse-${unique}`,
    phone_number: '0555123456',
    location: { latitude: 36.7731, longitude: 3.0587 },
  };
}

/**
 * Fills the registration form's name, phone (the mask types the leading 0, so the nine digits of a
 * mobile number give 0555123456), email and password. The location and the conditions are left to
 * the caller.
 */
export async function fillRegistration(
  page: Page,
  partner: Pick<PartnerAccount, 'full_name' | 'email' | 'password'>,
): Promise<void> {
  await page.getByRole('textbox', { name: 'Nom complet' }).fill(partner.full_name);
  const phone = page.locator('input[name="phone_number"]');
  await page.locator('input[name="phone_number"][data-masked="true"]').waitFor();
  await phone.click();
  await phone.pressSequentially('555123456');
  await expect.poll(() => phone.inputValue()).toBe('0555123456');
  await page.getByRole('textbox', { name: 'E-mail' }).fill(partner.email);
  await page.locator('input[name="password"]').fill(partner.password);
}

/** Registers through the API (the UI registration is a journey of its own); the server allows 5 per hour per IP. */
export async function registerViaApi(baseUrl: string, partner: PartnerAccount): Promise<void> {
  const response = await fetch(`${baseUrl}/api/auth/register/partner`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-origin': baseUrl, 'accept-language': 'fr' },
    body: JSON.stringify({ ...partner, privacy_conditions: true }),
  });
  if (response.status !== 201)
    throw new Error(`register ${partner.email}: ${response.status} ${await response.text()}`);
}

/**
 * Records one repair for this account through the API (a history to look at without the form).
 * recorded_at: when the reading was taken (default now), for a timeline that looks the same in every run.
 * idempotencyKey: the key to store it under (default a new one), e.g. a tablet's entry's own.
 */
export async function recordRepairViaApi(
  baseUrl: string,
  account: { email: string; password: string },
  repair: { kode_id: string; repair_type_id: string; odometer: number; recorded_at?: string },
  { idempotencyKey = crypto.randomUUID() }: { idempotencyKey?: string } = {},
): Promise<void> {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-origin': baseUrl },
    body: JSON.stringify({ email: account.email, password: account.password, remember_me: false }),
  });
  const session = (await login.json()) as { data?: { access_token?: string } };
  const token = session.data?.access_token;
  if (!token) throw new Error(`login ${account.email}: ${login.status} ${JSON.stringify(session)}`);
  const response = await fetch(`${baseUrl}/api/partner/repairs`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-origin': baseUrl,
      authorization: `Bearer ${token}`,
      'idempotency-key': idempotencyKey,
    },
    body: JSON.stringify({
      ...repair,
      note: '',
      consented: true,
      recorded_at: repair.recorded_at ?? new Date().toISOString(),
    }),
  });
  if (response.status !== 201) throw new Error(`repair: ${response.status} ${await response.text()}`);
}

// ---------------------------------------------------------------------------------------------
// Console watch

export interface ConsoleEntry {
  text: string;
  url: string;
}

export interface ConsoleWatch {
  /** Console errors and uncaught page errors so far. */
  entries(): readonly ConsoleEntry[];
  /** The entries no allowance explains. */
  unexpected(extraAllowed?: readonly RegExp[]): ConsoleEntry[];
  /** Fails the test with every unexpected entry in the message. */
  expectClean(extraAllowed?: readonly RegExp[]): void;
}

/**
 * What a healthy portal may log: the browser's own line for an API answer the app handles (a 401
 * from /refresh while signed out, a refused login, a spent reset token). Matched against
 * "text @ url". CSP violations ("Refused to …"), React errors and uncaught exceptions never are.
 */
export const EXPECTED_CONSOLE: readonly RegExp[] = [
  /^Failed to load resource: the server responded with a status of 401 \(Unauthorized\) @ .*\/api\/auth\/refresh$/,
];

export function watchConsole(page: Page): ConsoleWatch {
  const entries: ConsoleEntry[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') entries.push({ text: message.text(), url: message.location().url });
  });
  page.on('pageerror', (error) => entries.push({ text: `uncaught: ${error.stack ?? error.message}`, url: page.url() }));
  const unexpected = (extraAllowed: readonly RegExp[] = []) =>
    entries.filter((entry) => {
      const line = `${entry.text} @ ${entry.url}`;
      return ![...EXPECTED_CONSOLE, ...extraAllowed].some((pattern) => pattern.test(line));
    });
  return {
    entries: () => entries,
    unexpected,
    expectClean(extraAllowed = []) {
      const found = unexpected(extraAllowed);
      expect(found, `unexpected console errors:\n${found.map((e) => `- ${e.text} @ ${e.url}`).join('\n')}`).toEqual([]);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Common elements

export const FR = {
  dashboardTitle: 'Tableau de bord – Partenaire Garage',
  dashboardSubtitle: 'Nouvelle saisie et historique des kilométrages.',
  loginTitle: 'Connexion à l’espace partenaire',
  kodeIdInvalid: 'Veuillez saisir un KODE ID valide',
  odometerInvalid: 'Veuillez saisir un kilometrage valide',
  repairTypeRequired: 'Veuillez choisir un type de panne',
  consentRequired: 'Veuillez confirmer les informations avant de soumettre',
} as const;

/** Toast roots (Chakra/Ark: role="status" in the notifications region), optionally by their text. */
export function toasts(page: Page, text?: string | RegExp): Locator {
  const all = page.locator('[data-scope="toast"][data-part="root"]');
  return text === undefined ? all : all.filter({ hasText: text });
}

/** Waits for a toast of this type whose text contains title; returns it. */
export async function expectToast(
  page: Page,
  type: 'success' | 'error' | 'info' | 'warning',
  title: string | RegExp,
  timeout = 10_000,
): Promise<Locator> {
  const toast = toasts(page, title).last();
  await toast.waitFor({ state: 'visible', timeout });
  expect(await toast.getAttribute('data-type')).toBe(type);
  return toast;
}

/** Closes every toast on screen (for screenshots and before asserting a new one). */
export async function dismissToasts(page: Page): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const closers = page.locator('[data-scope="toast"][data-part="root"] [data-part="close-trigger"]');
    const count = await closers.count();
    if (count === 0) return;
    for (let i = count - 1; i >= 0; i--)
      await closers
        .nth(i)
        .click({ timeout: scaled(2_000) })
        .catch(() => undefined);
    await page.waitForTimeout(300);
  }
}

export function heading1(page: Page): Locator {
  return page.getByRole('heading', { level: 1 });
}

/** Opens a path of the app and waits until the session gate has let a page through (an h1 shows). */
export async function open(page: Page, baseUrl: string, pathname: string): Promise<void> {
  await page.goto(`${baseUrl}${pathname}`);
  await heading1(page).first().waitFor();
}

/** Fills the login form (French UI) and submits it, without waiting for the outcome. */
export async function submitLogin(
  page: Page,
  account: { email: string; password: string },
  options: { remember?: boolean } = {},
): Promise<void> {
  await page.locator('input[name="email"]').fill(account.email);
  await page.locator('input[name="password"]').fill(account.password);
  if (options.remember) {
    await page.getByText('Se souvenir de moi').click();
    await expect.poll(() => page.locator('input[name="remember_me"]').isChecked()).toBe(true);
  }
  await page.locator('form button[type="submit"]').click();
}

/** The signed-out pages after /login, in the order the screen walks visit them; `shown`: what says it is all there. */
const PUBLIC_PAGES = [
  { state: 'forgot-password', path: '/forgot-password' },
  // Any token that looks like one shows the form; it is checked only when the form is sent.
  { state: 'reset-password', path: '/reset-password?token=v4.local.screen-walk' },
  { state: 'privacy-conditions', path: '/privacy-conditions', shown: 'main h2' },
  { state: 'register', path: '/register', shown: 'input[name="phone_number"][data-masked="true"]' },
] as const;

export type PublicPage = (typeof PUBLIC_PAGES)[number]['state'];

/** Opens each public page after /login in turn and hands it to `look` once it is all there. */
export async function visitPublicPages(
  page: Page,
  baseUrl: string,
  look: (state: PublicPage) => Promise<void>,
): Promise<void> {
  for (const visit of PUBLIC_PAGES) {
    await open(page, baseUrl, visit.path);
    if ('shown' in visit) await page.locator(visit.shown).first().waitFor();
    await look(visit.state);
  }
}

/** Signs in from /login and waits for the dashboard. */
export async function signIn(
  page: Page,
  baseUrl: string,
  account: { email: string; password: string },
  options: { remember?: boolean } = {},
): Promise<void> {
  if (new URL(page.url(), baseUrl).pathname !== '/login' || !page.url().startsWith(baseUrl)) {
    await open(page, baseUrl, '/login');
  }
  await page.locator('input[name="email"]').waitFor();
  await submitLogin(page, account, options);
  await page.waitForURL(`${baseUrl}/`);
  await page.locator('[role="tablist"]').waitFor();
}

/** The account menu trigger in the header (its name is translated, so found by its place). */
export function accountMenuButton(page: Page): Locator {
  return page.locator('header button[aria-haspopup="menu"]').last();
}

/** Opens the user menu and picks an item by its position: 0 profile, 1 sign out. */
export async function chooseAccountMenuItem(page: Page, item: 'profile' | 'logout'): Promise<void> {
  await accountMenuButton(page).click();
  const menu = page.locator('[role="menu"]:visible');
  await menu.waitFor();
  await menu.locator(`[role="menuitem"][data-value="${item}"]`).click();
}

export async function signOut(page: Page, baseUrl: string): Promise<void> {
  await chooseAccountMenuItem(page, 'logout');
  await page.waitForURL(`${baseUrl}/login`);
  await page.locator('input[name="email"]').waitFor();
}

/** The language switcher in the header: a button that names the current language. */
export function languageButton(page: Page): Locator {
  return page.locator('header button[aria-haspopup="menu"]').first();
}

export type Language = 'fr' | 'ar' | 'en';

export async function switchLanguage(page: Page, language: Language): Promise<void> {
  // Right after a load the header may still be the prerendered HTML, hydrated after the screen
  // (docs/ARCHITECTURE.md#start-up); a tap before the app's script has even run is not seen by React.
  await expect
    .poll(() =>
      languageButton(page).evaluate((button) => Object.keys(button).some((key) => key.startsWith('__reactFiber'))),
    )
    .toBe(true);
  await languageButton(page).click();
  const menu = page.locator('[role="menu"]:visible');
  await menu.waitFor();
  await menu.locator(`[role="menuitemradio"][data-value="${language}"]`).click();
  await expect.poll(() => page.getAttribute('html', 'lang')).toBe(language);
  await menu.waitFor({ state: 'hidden' });
}

/** The theme toggle of the header (an icon button after the language switcher). */
export function themeToggle(page: Page): Locator {
  return page.locator('header button[title]:not([aria-haspopup])');
}

export function appColorMode(page: Page): Promise<'dark' | 'light'> {
  return page.evaluate(() => (document.documentElement.classList.contains('dark') ? 'dark' : 'light'));
}

/** Clicks the app's own light/dark toggle until the page is in that mode. */
export async function setAppColorMode(page: Page, mode: 'dark' | 'light'): Promise<void> {
  if ((await appColorMode(page)) !== mode) await themeToggle(page).click();
  await expect.poll(() => appColorMode(page)).toBe(mode);
}

/** Picks a dashboard tab by its position: add, history, advices. */
export async function openTab(page: Page, tab: 'add' | 'history' | 'advices'): Promise<void> {
  const index = { add: 0, history: 1, advices: 2 }[tab];
  await selectTab(page.getByRole('tab').nth(index));
  await page.locator('[role="tabpanel"]:visible').waitFor();
  // History and Advices load on first use: wait until the panel shows them, not the spinner.
  await expect.poll(() => page.locator('[role="tabpanel"]:visible .chakra-spinner').count()).toBe(0);
}

/** Types a KODE ID and presses Find; waits for the VIN field to fill. */
export async function lookUpVehicle(page: Page, kodeId: string): Promise<void> {
  const form = page.locator('form').first();
  const input = form.locator('input').first();
  await input.fill(kodeId);
  await form.locator('button[type="button"]').first().click();
  await expect
    .poll(() => form.locator('input[readonly]').first().inputValue(), { timeout: scaled(10_000) })
    .not.toBe('');
}

/** Fills the rest of the repair form after a lookup (type by its value, odometer, consent). */
export async function fillRepair(page: Page, repair: { typeId: string; odometer: string }): Promise<void> {
  const form = page.locator('form').first();
  await form.locator('select').selectOption(repair.typeId);
  await form.locator('input[inputmode="numeric"]').fill(repair.odometer);
  const consent = form.locator('input[name="consented"]');
  await consent.click();
  await expect.poll(() => consent.isChecked()).toBe(true);
}

/** The whole Insert: lookup, fields, Insert, and the success toast. */
export async function insertRepair(
  page: Page,
  repair: { kodeId: string; typeId: string; odometer: string },
): Promise<void> {
  await lookUpVehicle(page, repair.kodeId);
  await fillRepair(page, repair);
  await page.locator('form').first().locator('button[type="submit"]').click();
  await toasts(page)
    .and(page.locator('[data-type="success"]'))
    .filter({ hasNotText: /Véhicule|vehicle|المركبة/i })
    .last()
    .waitFor({ timeout: scaled(15_000) });
}

// ---------------------------------------------------------------------------------------------
// Catalogs

const catalogs = new Map<string, Map<string, string>>();

function unquote(line: string): string {
  return JSON.parse(line.trim()) as string;
}

/**
 * Every catalog of a language: the app's (src/locales/<locale>) and those loaded on demand with a
 * feature or a dialog (src/features/sync/locales/<locale>, src/locales/photo/<locale>, …).
 */
function catalogFiles(locale: Language): string[] {
  const src = path.join(PROJECT_ROOT, 'src');
  return fs
    .readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => {
      const parts = file.split(path.sep);
      return parts.includes('locales') && parts.slice(-2).join('/') === `${locale}/messages.po`;
    })
    .map((file) => path.join(src, file));
}

/** msgid → msgstr of every catalog of the language, as the translators left them (multi-line entries joined). */
function catalog(locale: Language): Map<string, string> {
  let entries = catalogs.get(locale);
  if (entries) return entries;
  entries = new Map();
  for (const file of catalogFiles(locale)) readCatalog(fs.readFileSync(file, 'utf8'), entries);
  catalogs.set(locale, entries);
  return entries;
}

function readCatalog(text: string, entries: Map<string, string>): void {
  for (const block of text.split(/\r?\n\r?\n/)) {
    const lines = block.split(/\r?\n/).filter((line) => !line.startsWith('#'));
    let field: 'msgid' | 'msgstr' | null = null;
    let msgid = '';
    let msgstr = '';
    for (const line of lines) {
      if (line.startsWith('msgid ')) {
        field = 'msgid';
        msgid = unquote(line.slice(6));
      } else if (line.startsWith('msgstr ')) {
        field = 'msgstr';
        msgstr = unquote(line.slice(7));
      } else if (line.startsWith('"') && field === 'msgid') msgid += unquote(line);
      else if (line.startsWith('"') && field === 'msgstr') msgstr += unquote(line);
    }
    if (msgid) entries.set(msgid, msgstr);
  }
}

/**
 * The translation of a French source text, or null while the translators have not written it
 * (the app then falls back to French). Tests assert the exact translated text when there is one.
 */
export function translation(locale: Language, french: string): string | null {
  if (locale === 'fr') return french;
  const value = catalog(locale).get(french);
  return value ? value : null;
}
