/**
 * Chromium for the end-to-end tests: the system Chromium driven by
 * playwright-core, tablet-sized contexts, and no way out to the internet (docs/PRODUCT.md#maps-and-location-search:
 * no test may reach the tile or geocoder services; the local stubs stand in for them).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Route } from 'playwright-core';
import { scaled } from '../../support/host-speed';
import { fileNameFor, TEST_RESULTS_DIR } from './paths';

/** Flags known to work on these machines; the rest keep Chromium from phoning home during a run. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const SCREENSHOT_DIR = path.join(TEST_RESULTS_DIR, 'screenshots');

/** extraArgs: flags for one test file's needs, e.g. a fake camera (support/camera.ts). */
export function launchBrowser({ extraArgs = [] }: { extraArgs?: readonly string[] } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}

export interface TabletContextOptions {
  /** landscape 1024x768 (default), portrait 800x1280, or wide: a 1280x800 tablet held in landscape. */
  orientation?: 'landscape' | 'portrait' | 'wide';
  /** BCP 47 locale for navigator.language and Accept-Language; default fr-DZ. */
  locale?: string;
  colorScheme?: 'light' | 'dark';
  /** When given, geolocation is granted and reports this position ("use my location"). */
  geolocation?: { latitude: number; longitude: number };
  /**
   * 'block' keeps the service worker from registering, so every request of the page reaches the
   * network and a test's routes (a chunk made to fail, for instance); default 'allow'.
   */
  serviceWorkers?: 'allow' | 'block';
  /** false: a browser that runs no script, to see what the HTML alone shows; default true. */
  javaScript?: boolean;
}

/** The tablets the portal is laid out for, by how they are held (wide: a 1280×800 tablet in landscape). */
export const TABLET_VIEWPORTS = {
  landscape: { width: 1024, height: 768 },
  portrait: { width: 800, height: 1280 },
  wide: { width: 1280, height: 800 },
} as const;

/**
 * http(s) to another machine: data:, blob: and loopback URLs (127.0.0.1, localhost, [::1], any port)
 * do not match. A regular expression rather than a function, so Playwright matches it in its own
 * driver: a request that does not match goes on there, without a round trip to the test process
 * (every page load and every file of the service worker's precache; about 0.4 CPU-seconds per new
 * context with a function, measured in docs/decisions/0026-cheaper-test-runs.md).
 */
export const EXTERNAL_URL = /^https?:\/\/(?!(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?(?:[/?#]|$))/i;

/** The tablet contexts not closed yet, for a screenshot of what they show when a test fails (failure-capture.ts). */
/** Playwright's default wait for an action or a navigation. */
const PLAYWRIGHT_DEFAULT_TIMEOUT_MS = 30_000;

const openContexts = new Set<BrowserContext>();

export function openTabletPages(): Page[] {
  return [...openContexts].flatMap((context) => context.pages());
}

/** What each context refused, so a test can assert that the app did try (and failed) to go out. */
const blockedByContext = new WeakMap<BrowserContext, string[]>();

export function blockedRequests(context: BrowserContext): readonly string[] {
  return blockedByContext.get(context) ?? [];
}

/**
 * A tablet-sized context, with service workers allowed unless told. Every request to a host other than
 * loopback is aborted, from pages and from the service worker alike (Playwright routes service
 * worker fetches in Chromium). Note: while a route is set Playwright disables the HTTP cache, so
 * offline behaviour under test is the service worker's Cache Storage, which is what the PWA relies on.
 */
export async function newTabletContext(browser: Browser, options: TabletContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: TABLET_VIEWPORTS[options.orientation ?? 'landscape'],
    locale: options.locale ?? 'fr-DZ',
    colorScheme: options.colorScheme ?? 'light',
    serviceWorkers: options.serviceWorkers ?? 'allow',
    javaScriptEnabled: options.javaScript ?? true,
    hasTouch: true,
    ...(options.geolocation ? { geolocation: options.geolocation, permissions: ['geolocation'] } : {}),
  });
  // Playwright's own budget for an action or a navigation (30 s), as this host needs it.
  context.setDefaultTimeout(scaled(PLAYWRIGHT_DEFAULT_TIMEOUT_MS));
  openContexts.add(context);
  context.once('close', () => openContexts.delete(context));
  const blocked: string[] = [];
  blockedByContext.set(context, blocked);
  await context.route(EXTERNAL_URL, (route: Route) => {
    blocked.push(route.request().url());
    return route.abort('blockedbyclient');
  });
  return context;
}

/** Saves a full-page PNG as test-results/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await fs.mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${fileNameFor(name)}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
