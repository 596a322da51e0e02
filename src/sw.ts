/// <reference lib="webworker" />
/**
 * The service worker (docs/ARCHITECTURE.md#the-offline-model-in-practice, docs/PRODUCT.md#maps-and-location-search): the whole app shell precached so every route
 * opens offline; map tiles cached as they are viewed (cache first, bounded, kept 30 days, never
 * fetched ahead); public documents and pictures kept for offline reading. API data is not cached
 * here: the app keeps it in IndexedDB. The first worker takes control of the pages already open,
 * the one that installed it included, so a first session works offline without a reload; a new
 * version waits until the page asks it to take over. Where the browser has Background Sync, the
 * outbox's sync event sends the queued entries with the pages' engine, tabs closed or not.
 */
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import {
  COLOR_MODE_COOKIE,
  KEEP_SCANNER_CODE_MESSAGE,
  KEEP_SHELL_VARIANT_MESSAGE,
  LANGUAGE_COOKIE,
  prerenderedFile,
  shellVariantOf,
  type ShellVariant,
} from '../contract/shell';
import { ODOMETER_PHOTOS_CACHE, ODOMETER_PHOTOS_MAX, PICTURES_CACHE, SCANNER_CODE_CACHE } from './lib/cache-names';
import { OUTBOX_SYNC_TAG, sendOutboxFromWorker } from './lib/entries/worker';
import { isPrerenderedEntry, ShellKeeper, shellRevisions } from './lib/sw-shells';

declare const self: ServiceWorkerGlobalScope;

/** Background Synchronization's event (not in TypeScript's WebWorker library). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}

/** The Cookie Store API (Chromium, Safari 18.4+; not in TypeScript's WebWorker library). */
interface CookieStore {
  get(name: string): Promise<{ value: string } | null>;
}

export const TILE_CACHE = 'map-tiles-v1';
const TILE_MAX_ENTRIES = 3000;
const TILE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
/** z/x/y(.png|.jpg|.webp), with an optional @2x or retina suffix: every common tile template. */
const TILE_PATH = /\/\d{1,2}\/\d+\/\d+(@2x|r)?\.(png|jpe?g|webp)$/;

/** What the build listed for the precache: the prerendered pages are kept apart (sw-shells.ts). */
const MANIFEST = self.__WB_MANIFEST;
const shells = new ShellKeeper(shellRevisions(MANIFEST));

cleanupOutdatedCaches();
// No directory index: by default the precache answers a navigation to `/` with index.html before the
// navigation route below is asked, and the dashboard's prerendered frame would never be sent.
precacheAndRoute(
  MANIFEST.filter((entry) => !isPrerenderedEntry(entry)),
  { directoryIndex: '' },
);
// The tablet's own variant of the prerendered pages, with the install; the others' pages go once this
// worker runs.
self.addEventListener('install', (event) => event.waitUntil(keepRequestedShells()));
self.addEventListener('activate', (event) => {
  event.waitUntil(shells.dropOthers().catch(() => undefined));
});
// On activation, control the open pages. The first install activates at once, after precaching every
// chunk, so the page that installed it gets every later chunk from the precache, offline too. A
// new version is activated only when the mechanic accepts it (SKIP_WAITING below), and the page then
// reloads into it (src/lib/pwa.ts).
clientsClaim();

/** The language and colour mode the page last kept in its cookies; French and light where they cannot be read. */
async function requestedShellVariant(): Promise<ShellVariant> {
  const cookies = (self as unknown as { cookieStore?: CookieStore }).cookieStore;
  const read = async (name: string) => (await cookies?.get(name).catch(() => null))?.value;
  return shellVariantOf(await read(LANGUAGE_COOKIE), await read(COLOR_MODE_COOKIE));
}

/** Keeps the first screens of the variant the cookies name now; a failure waits for the next ask. */
function keepRequestedShells(): Promise<void> {
  return requestedShellVariant()
    .then((variant) => shells.keep(variant))
    .catch(() => undefined);
}

const appShell = createHandlerBoundToURL('/index.html');

// Client routes get the precached shell, a page prerendered in the mechanic's language and colours
// where there is one (docs/ARCHITECTURE.md#prerendered-first-screens); API paths never do.
registerRoute(
  new NavigationRoute(
    async (options) => {
      const { pathname, search } = options.url;
      const file = prerenderedFile(pathname, await requestedShellVariant(), search);
      return (file && (await shells.page(file))) || appShell(options);
    },
    { denylist: [/^\/api\//] },
  ),
);

registerRoute(
  ({ url, request }) =>
    request.destination === 'image' && TILE_PATH.test(url.pathname) && !url.pathname.startsWith('/api/'),
  new CacheFirst({
    cacheName: TILE_CACHE,
    plugins: [
      // Tiles are requested with CORS, so only real 200 answers are kept (opaque ones cost ~7 MB of quota each).
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({
        maxEntries: TILE_MAX_ENTRIES,
        maxAgeSeconds: TILE_MAX_AGE_SECONDS,
        purgeOnQuotaError: true,
      }),
    ],
  }),
);

/** ZXing's WebAssembly: one of the app's assets, named by its hash. */
const SCANNER_CODE_PATH = /^\/assets\/[^/]+\.wasm$/;
/**
 * ZXing's WebAssembly, out of the precache: kept once a tablet that needs it asked for it (the
 * KEEP_SCANNER_CODE_MESSAGE below, src/features/dashboard/scan/prefetch.ts), or at its first scan. Its
 * name is hashed, so a new version is a new entry and the old one goes (one kept).
 */
const scannerCode = new CacheFirst({
  cacheName: SCANNER_CODE_CACHE,
  plugins: [new CacheableResponsePlugin({ statuses: [200] }), new ExpirationPlugin({ maxEntries: 1 })],
});
registerRoute(
  ({ url, request }) =>
    request.method === 'GET' && url.origin === self.location.origin && SCANNER_CODE_PATH.test(url.pathname),
  scannerCode,
);

registerRoute(
  ({ url, request }) =>
    request.method === 'GET' &&
    url.origin === self.location.origin &&
    /^\/api\/public\/(settings|client-config)$/.test(url.pathname),
  new NetworkFirst({ cacheName: 'public-documents-v1', networkTimeoutSeconds: 5 }),
);

registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/api/images/'),
  new StaleWhileRevalidate({
    cacheName: PICTURES_CACHE,
    plugins: [new ExpirationPlugin({ maxEntries: 50, maxAgeSeconds: TILE_MAX_AGE_SECONDS })],
  }),
);

// Sent odometer photos (docs/ARCHITECTURE.md#odometer-photos): a photo never changes once stored, so
// the cached one is the answer, offline too. Only 200s are kept, and at most so many of them.
registerRoute(
  ({ url, request }) =>
    request.method === 'GET' &&
    url.origin === self.location.origin &&
    /^\/api\/partner\/repairs\/[^/]+\/photo$/.test(url.pathname),
  new CacheFirst({
    cacheName: ODOMETER_PHOTOS_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: ODOMETER_PHOTOS_MAX, purgeOnQuotaError: true }),
    ],
  }),
);

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: string } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  // The page's language or colours changed: keep that variant's first screens too.
  if (type === KEEP_SHELL_VARIANT_MESSAGE) event.waitUntil(keepRequestedShells());
  // A browser without a barcode reader of its own: keep the scanner's WebAssembly for offline scans,
  // through its route's strategy (cache first, one version kept).
  const url = (event.data as { url?: unknown } | null)?.url;
  if (type === KEEP_SCANNER_CODE_MESSAGE && typeof url === 'string') {
    const asset = new URL(url, self.location.origin);
    if (asset.origin === self.location.origin && SCANNER_CODE_PATH.test(asset.pathname)) {
      event.waitUntil(scannerCode.handle({ event, request: new Request(asset.href) }).catch(() => undefined));
    }
  }
});

// The outbox's background sync (docs/ARCHITECTURE.md#the-offline-model-in-practice): a rejection tells
// the browser that entries are left, so it fires again later (a few times at most, then gives up until
// a page asks again).
self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(sendOutboxFromWorker());
});
