/**
 * Figure 1, first-load weight: the JavaScript and CSS Chromium fetches to show /login, and to show
 * the dashboard after sign-in, on a first visit (empty cache, no service worker yet). Each body is
 * gzipped here (zlib level 6, what servers commonly use), so the figure does not depend on how the
 * server compresses. The service worker script and what the worker precaches in the background are
 * not counted: the page does not wait for them. Bytes are deterministic for a given build.
 *
 * The server sends Brotli (or gzip) copies made at build time; what actually crossed the wire is
 * recorded too (wireBytes).
 *
 * Also used by tests/e2e/first-load.test.ts, which fails when a chunk that must stay lazy is in a
 * first load, or when a first load grows past its budget (the dashboard and the journey past their CEILINGS).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import type { Browser, Page, Response } from 'playwright-core';
import { PROJECT_ROOT } from '../tests/e2e/support/paths';
import { forgetCode, interactiveAt, newBenchContext, signInThroughForm } from './lib/browser';

/** 1 KB = 1,024 bytes throughout the report. */
export const KB = 1024;

export const BUDGETS = {
  /** Gzip JavaScript to show /login on a first visit. Held by `npm test`. */
  loginJsGzip: 180 * KB,
  /** Gzip JavaScript the dashboard asks for, signed in on a first visit, before its form is typeable. Held by `npm test`. */
  dashboardFirstScreenJsGzip: 180 * KB,
} as const;

/**
 * Reported, not budgeted: everything the dashboard fetches until it is quiet, and the sign-in journey
 * (/login, then the dashboard in the same visit, with the "Connexion réussie" toast's code). What comes
 * after the form is typeable is not traded against a measured speed-up or a simpler design; a ceiling
 * only keeps it from growing unnoticed.
 */
export const CEILINGS = {
  dashboardJsGzip: 250 * KB,
  // 270 KB until the History's code and words (about 9 KB) came to load at the first moment to spare
  // once the form is live, to be there before the tap (docs/decisions/0036-the-history-is-there-before-the-tap.md).
  signInJourneyJsGzip: 285 * KB,
} as const;

/** Chunks that must load on demand only: never part of a first load of /login or the dashboard. */
export type LazyKind = 'map' | 'phone-mask' | 'catalog-ar' | 'catalog-en' | 'scanner' | 'timeline';

/** IndexedDB's library: the signed-in screens need it once they are live, /login never does. */
export function isDatabaseChunk(content: string): boolean {
  return content.includes('MissingAPIError') && content.includes('DatabaseClosedError');
}

export interface Chunk {
  /** Path on the server, e.g. /assets/shell-abc123.js */
  file: string;
  type: 'js' | 'css';
  bytes: number;
  gzipBytes: number;
  /** The encoded body as it crossed the wire (Brotli from the portal's server). */
  wireBytes: number;
  /** Set when the chunk is one that must stay lazy. */
  lazy: LazyKind | null;
  /** Dexie's code (isDatabaseChunk). */
  database: boolean;
}

export interface LoadSet {
  jsGzipBytes: number;
  cssGzipBytes: number;
  jsBytes: number;
  cssBytes: number;
  /** JavaScript and CSS as transferred (encoded bodies). */
  wireBytes: number;
  chunks: Chunk[];
}

export interface FirstLoad {
  /** First visit to /login. */
  login: LoadSet;
  /** The dashboard opened signed in (cookie and IndexedDB kept) with no code cached: the dashboard alone. */
  dashboard: LoadSet;
  /** First visit to /login, then sign-in through the form until the dashboard can be typed in: both loads together. */
  signInJourney: LoadSet;
  /** Of the dashboard's load, the files asked for before its form could be typed in (the mark). */
  dashboardFirstScreen: LoadSet;
}

// ---------------------------------------------------------------------------------------------
// Which chunk is which: by content, so a renamed chunk is still recognised.

/** msgstr of a catalog that differ from the French msgid, are long enough to be specific, and plain (a placeholder or a plural compiles to another form). */
function catalogSignatures(locale: 'ar' | 'en'): string[] {
  const text = fs.readFileSync(path.join(PROJECT_ROOT, 'src', 'locales', locale, 'messages.po'), 'utf8');
  const signatures: string[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const id = /^msgid "(.*)"$/m.exec(block)?.[1];
    const str = /^msgstr "(.*)"$/m.exec(block)?.[1];
    if (id && str && str !== id && str.length >= 24 && !/[\\{<]/.test(str)) signatures.push(str);
  }
  return signatures.sort((a, b) => b.length - a.length).slice(0, 12);
}

let signatures: Record<'ar' | 'en', string[]> | null = null;

/** Each entry of a .po file: its msgid and msgstr. */
function poEntries(file: string): { id: string; str: string }[] {
  return fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n\r?\n/)
    .map((block) => ({ id: /^msgid "(.*)"$/m.exec(block)?.[1] ?? '', str: /^msgstr "(.*)"$/m.exec(block)?.[1] ?? '' }))
    .filter((entry) => entry.id !== '');
}

/**
 * The scanner (src/features/dashboard/scan) loads on demand, words included: its components refer to
 * the ids of its own catalog's messages (those the app's catalog lacks), and its compiled catalogs hold
 * their texts. ZXing's reader is told by the function its WebAssembly glue exports.
 */
function scannerSignatures(): { ids: RegExp[]; texts: string[] } {
  const app = new Set(
    poEntries(path.join(PROJECT_ROOT, 'src', 'locales', 'fr', 'messages.po')).map((entry) => entry.id),
  );
  const catalog = (locale: string) =>
    poEntries(path.join(PROJECT_ROOT, 'src', 'features', 'dashboard', 'scan', 'locales', locale, 'messages.po'));
  const own = catalog('fr').filter((entry) => !app.has(entry.id));
  const ids = own.map((entry) => new RegExp(`[\`"']${generateMessageId(entry.id).replace(/[+/]/g, '\\$&')}[\`"']`));
  const texts = ['fr', 'ar', 'en']
    .flatMap((locale) => catalog(locale).map((entry) => (locale === 'fr' ? entry.id : entry.str)))
    .filter((text) => text.length >= 24 && !/[\\{<"]/.test(text));
  return { ids, texts };
}

let scanner: ReturnType<typeof scannerSignatures> | null = null;

function isScannerChunk(content: string): boolean {
  scanner ??= scannerSignatures();
  if (content.includes('readBarcodesFromPixmap')) return true;
  const ids = scanner.ids.filter((id) => id.test(content)).length;
  const texts = scanner.texts.filter((text) => content.includes(text)).length;
  return ids >= 2 || texts >= 2;
}

export function lazyKindOf(file: string, content: string): LazyKind | null {
  signatures ??= { ar: catalogSignatures('ar'), en: catalogSignatures('en') };
  const name = path.basename(file);
  if (name.startsWith('LocationMap-') || content.includes('leafletjs.com') || content.includes('_leaflet_id')) {
    return 'map';
  }
  // The vehicle's chart: its line keeps its width however the chart is stretched.
  if (name.startsWith('VehicleTimeline-') || content.includes('non-scaling-stroke')) return 'timeline';
  // imask's DIRECTION enum; nothing else in the app spells it.
  if (content.includes('FORCE_LEFT') && content.includes('FORCE_RIGHT')) return 'phone-mask';
  if (isScannerChunk(content)) return 'scanner';
  for (const locale of ['ar', 'en'] as const) {
    const list = signatures[locale];
    const hits = list.filter((signature) => content.includes(signature)).length;
    if (list.length > 0 && hits >= Math.ceil(list.length / 2)) return locale === 'ar' ? 'catalog-ar' : 'catalog-en';
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Recording what a page fetches

interface Recorder {
  /** Responses recorded since start (or since the last mark). */
  take(): Promise<Chunk[]>;
  /** Resolves once nothing has been in flight for quietMs. */
  quiet(quietMs?: number, timeoutMs?: number): Promise<void>;
}

function typeOf(response: Response): 'js' | 'css' | null {
  const { pathname } = new URL(response.url());
  const contentType = response.headers()['content-type'] ?? '';
  if (pathname.endsWith('.js') || contentType.includes('javascript')) return 'js';
  if (pathname.endsWith('.css') || contentType.includes('text/css')) return 'css';
  return null;
}

function record(page: Page): Recorder {
  let pending: Promise<Chunk | null>[] = [];
  let inFlight = 0;
  let lastActivity = Date.now();
  page.on('request', () => {
    inFlight += 1;
    lastActivity = Date.now();
  });
  const done = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastActivity = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  page.on('response', (response) => {
    const type = typeOf(response);
    const request = response.request();
    const { pathname } = new URL(response.url());
    // The page's own fetches only: not the worker script, not what the worker fetches for itself.
    if (!type || request.serviceWorker() || pathname === '/sw.js' || response.status() !== 200) return;
    pending.push(
      Promise.all([response.body(), request.sizes()])
        .then(([body, sizes]): Chunk => {
          const content = body.toString('utf8');
          return {
            file: pathname,
            type,
            bytes: body.length,
            gzipBytes: zlib.gzipSync(body, { level: 6 }).length,
            wireBytes: sizes.responseBodySize,
            lazy: type === 'js' ? lazyKindOf(pathname, content) : null,
            database: type === 'js' && isDatabaseChunk(content),
          };
        })
        .catch(() => null),
    );
  });
  return {
    async take() {
      const taken = pending;
      pending = [];
      return (await Promise.all(taken)).filter((chunk): chunk is Chunk => chunk !== null);
    },
    async quiet(quietMs = 750, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (inFlight === 0 && Date.now() - lastActivity >= quietMs) return;
        await page.waitForTimeout(100);
      }
      throw new Error(`the page kept fetching for ${timeoutMs} ms`);
    },
  };
}

export function summarise(chunks: readonly Chunk[]): LoadSet {
  const unique = new Map<string, Chunk>();
  // The first fetch of a file counts: a later one may come from the memory cache (0 bytes on the wire).
  for (const chunk of chunks) if (!unique.has(chunk.file)) unique.set(chunk.file, chunk);
  const list = [...unique.values()].sort((a, b) => b.gzipBytes - a.gzipBytes);
  const sum = (type: 'js' | 'css', field: 'bytes' | 'gzipBytes') =>
    list.filter((chunk) => chunk.type === type).reduce((total, chunk) => total + chunk[field], 0);
  return {
    jsGzipBytes: sum('js', 'gzipBytes'),
    cssGzipBytes: sum('css', 'gzipBytes'),
    jsBytes: sum('js', 'bytes'),
    cssBytes: sum('css', 'bytes'),
    wireBytes: list.reduce((total, chunk) => total + chunk.wireBytes, 0),
    chunks: list,
  };
}

async function fillLogin(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.locator('input[name="email"]').fill(account.email);
  await page.locator('input[name="password"]').fill(account.password);
  await page.locator('form button[type="submit"]').click();
}

/** One measurement of the three loads, each in a fresh browser context. */
export async function measureFirstLoad(
  browser: Browser,
  baseUrl: string,
  account: { email: string; password: string },
): Promise<FirstLoad> {
  // /login, then the sign-in journey in the same context.
  const context = await newBenchContext(browser);
  let login: LoadSet;
  let signInJourney: LoadSet;
  try {
    const page = await context.newPage();
    const recorder = record(page);
    await page.goto(`${baseUrl}/login`);
    await page.locator('input[name="email"]').waitFor();
    await recorder.quiet();
    const loginChunks = await recorder.take();
    login = summarise(loginChunks);
    await fillLogin(page, account);
    await interactiveAt(page);
    await recorder.quiet();
    signInJourney = summarise([...loginChunks, ...(await recorder.take())]);
  } finally {
    await context.close();
  }

  // The dashboard opened by a signed-in mechanic (session kept) with no code on the tablet yet.
  const signedIn = await newBenchContext(browser);
  let dashboard: LoadSet;
  let dashboardFirstScreen: LoadSet;
  try {
    const first = await signedIn.newPage();
    await signInThroughForm(first, baseUrl, account);
    await first.close();
    const page = await signedIn.newPage();
    await forgetCode(page, baseUrl);
    const recorder = record(page);
    await page.goto(`${baseUrl}/`);
    const typeableAt = await interactiveAt(page);
    const askedBefore = await filesAskedBefore(page, typeableAt);
    await recorder.quiet();
    const chunks = await recorder.take();
    dashboard = summarise(chunks);
    dashboardFirstScreen = summarise(chunks.filter((chunk) => askedBefore.has(chunk.file)));
  } finally {
    await signedIn.close();
  }
  return { login, dashboard, signInJourney, dashboardFirstScreen };
}

/** The paths of the files the page asked for before `time` (resource timing, from navigation start). */
async function filesAskedBefore(page: Page, time: number): Promise<Set<string>> {
  const paths = await page.evaluate(
    (before) =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime < before)
        .map((entry) => new URL(entry.name).pathname),
    time,
  );
  return new Set(paths);
}

/** Every way a first load breaks its budget, in words; empty when all hold. */
export function budgetViolations(load: FirstLoad): string[] {
  const problems: string[] = [];
  const kbOf = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
  if (load.login.jsGzipBytes > BUDGETS.loginJsGzip) {
    problems.push(`login: ${kbOf(load.login.jsGzipBytes)} of gzip JS, budget ${kbOf(BUDGETS.loginJsGzip)}`);
  }
  for (const chunk of load.login.chunks) {
    if (chunk.database) problems.push(`login: ${chunk.file} (IndexedDB's library) must load after sign-in only`);
  }
  if (load.dashboardFirstScreen.jsGzipBytes > BUDGETS.dashboardFirstScreenJsGzip) {
    problems.push(
      `dashboard until its form is typeable: ${kbOf(load.dashboardFirstScreen.jsGzipBytes)} of gzip JS, budget ${kbOf(BUDGETS.dashboardFirstScreenJsGzip)}`,
    );
  }
  if (load.dashboard.jsGzipBytes > CEILINGS.dashboardJsGzip) {
    problems.push(
      `dashboard: ${kbOf(load.dashboard.jsGzipBytes)} of gzip JS, ceiling ${kbOf(CEILINGS.dashboardJsGzip)}`,
    );
  }
  for (const chunk of load.dashboardFirstScreen.chunks) {
    if (chunk.database)
      problems.push(`dashboard: ${chunk.file} (IndexedDB's library) must load after the first screen`);
  }
  if (load.signInJourney.jsGzipBytes > CEILINGS.signInJourneyJsGzip) {
    problems.push(
      `sign-in journey (login then dashboard): ${kbOf(load.signInJourney.jsGzipBytes)} of gzip JS, ceiling ${kbOf(CEILINGS.signInJourneyJsGzip)}`,
    );
  }
  for (const [name, set] of [
    ['login', load.login],
    ['dashboard', load.dashboard],
    ['sign-in journey', load.signInJourney],
  ] as const) {
    for (const chunk of set.chunks) {
      if (chunk.lazy) problems.push(`${name}: ${chunk.file} (${chunk.lazy}) must load on demand only`);
    }
  }
  return problems;
}
