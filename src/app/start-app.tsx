/**
 * The app's start once React and the design system have run (src/main.tsx loads them first, each in a
 * task of its own): the router, the session, the outbox's sender, the first render or hydration, the
 * service worker (docs/ARCHITECTURE.md#start-up).
 */
import { StrictMode, startTransition, type ComponentType } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './App';
import { servedIn } from './prerendered-page';
import { createRouter, type ScreenCode } from './Router';
import { reportCaughtError } from '../components/ui/chunk-error-boundary';
import { currentLocale } from '../lib/i18n';
import { registerServiceWorker } from '../lib/pwa';
import { ensureSession, getSession, onSignIn, settleSignOutWhenOnline, subscribeSession } from '../lib/session';
import { afterFirstScreen, loadPersistently } from '../lib/start-up';

/**
 * Starts the app on `container` once the catalog of the partner's language is `catalogReady`. The
 * screens' code is handed in by the entry, the one module that names their chunks (src/app/screens.ts).
 */
export function startApp(screenCode: ScreenCode, container: HTMLElement, catalogReady: Promise<unknown>): void {
  const { Router, preloadLandingPage } = createRouter(screenCode);
  // Each sign-in (a session refreshed at start included) fills the tablet with the partner's history and
  // statistics, so they show offline from the first minute. Its code loads then: a sign-in is online.
  onSignIn(() =>
    afterFirstScreen(
      () =>
        void import('../features/dashboard/data/device-fill')
          .then(({ fillDevice }) => fillDevice())
          .catch(() => undefined),
    ),
  );
  settleSignOutWhenOnline();
  // The session check and the landing page's code start now, alongside the catalog and the first render.
  void ensureSession();
  preloadLandingPage(window.location.pathname);
  startSyncOnceSignedIn();
  void catalogReady.then(() => renderApp(container, Router));
  registerServiceWorkerOnce();
}

/**
 * The outbox's sender, and IndexedDB's code with it, starts once a partner is signed in (by the server
 * or from the tablet's cache offline): /login needs neither (docs/ARCHITECTURE.md#start-up).
 */
function startSyncOnceSignedIn(): void {
  const stopWaitingForPartner = subscribeSession(() => {
    if (getSession().status !== 'authenticated') return;
    stopWaitingForPartner();
    afterFirstScreen(
      () =>
        void loadPersistently(() => import('../lib/sync'))
          .then(({ startSync }) => startSync())
          .catch((error: unknown) => console.error('outbox sender', error)),
    );
  });
}

function renderApp(container: HTMLElement, Router: ComponentType): void {
  const app = (
    <StrictMode>
      <App Router={Router} />
    </StrictMode>
  );
  // A part whose code cannot be fetched is shown to the mechanic with Retry, not logged as a bug.
  const options = { onCaughtError: reportCaughtError };
  // A page prerendered in the language and colour mode in force is brought to life where it stands
  // (docs/ARCHITECTURE.md#prerendered-first-screens), as a transition like the render below: React
  // hydrates in one uninterrupted task otherwise (its default hydration lane is not time-sliced).
  if (servedIn(container, currentLocale())) {
    startTransition(() => void hydrateRoot(container, app, options));
    return;
  }
  // Otherwise (no prerendered page here, or one in another language or mode) the app renders from
  // nothing, replacing what the HTML showed. As a transition, the first render yields to the browser
  // every few milliseconds instead of holding the main thread for the whole tree: on a slow tablet a
  // tap or a keystroke is answered meanwhile (Lighthouse's total blocking time on /login was halved).
  const root = createRoot(container, options);
  startTransition(() => root.render(app));
}

/** The longest the worker's registration waits for the first screen (one that never shows still gets it). */
const REGISTER_AT_THE_LATEST_MS = 10_000;

/**
 * The worker (and workbox-window's code) once the first screen is on show: its registration is not
 * part of what the mechanic waits for before typing (docs/ARCHITECTURE.md#start-up).
 */
function registerServiceWorkerOnce(): void {
  let registered = false;
  const register = () => {
    if (registered) return;
    registered = true;
    void registerServiceWorker();
  };
  afterFirstScreen(register);
  setTimeout(register, REGISTER_AT_THE_LATEST_MS);
}
