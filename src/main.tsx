import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { keepPrerenderedPageIfChosen, servedIn } from './app/prerendered-page';
import { createRouter } from './app/Router';
import { screenCode } from './app/screens';
import { reportCaughtError } from './components/ui/chunk-error-boundary';
import { initColorMode } from './lib/color-mode';
import { currentLocale, initI18n, storedLocale } from './lib/i18n';
import { keepInstallOffer, registerServiceWorker } from './lib/pwa';
import { ensureSession, getSession, onSignIn, settleSignOutWhenOnline, subscribeSession } from './lib/session';
import { afterFirstScreen, loadPersistently } from './lib/start-up';
import { noteServedFields } from './lib/typed-before-hydration';

initColorMode();
// The screens' code is named here, in the entry, and nowhere in the shared code (src/app/screens.ts).
const { Router, preloadLandingPage } = createRouter(screenCode);
const container = document.getElementById('root')!;
// A prerendered page in the language and mode in force stays to be hydrated; what is typed into its
// fields until then becomes the forms' own. One in another language or mode is taken away at once.
if (keepPrerenderedPageIfChosen(container, storedLocale())) noteServedFields(container);
// Each sign-in (a session refreshed at start included) fills the tablet with the partner's history and
// statistics, so they show offline from the first minute. Its code loads then: a sign-in is online.
onSignIn(() =>
  afterFirstScreen(
    () =>
      void import('./features/dashboard/data/device-fill')
        .then(({ fillDevice }) => fillDevice())
        .catch(() => undefined),
  ),
);
settleSignOutWhenOnline();
// The session check and the landing page's code start now, alongside the catalog and the first render.
void ensureSession();
preloadLandingPage(window.location.pathname);
// The outbox's sender, and IndexedDB's code with it, starts once a partner is signed in (by the server
// or from the tablet's cache offline): /login needs neither (docs/ARCHITECTURE.md#start-up).
const stopWaitingForPartner = subscribeSession(() => {
  if (getSession().status !== 'authenticated') return;
  stopWaitingForPartner();
  afterFirstScreen(
    () =>
      void loadPersistently(() => import('./lib/entries'))
        .then(({ startSync }) => startSync())
        .catch((error: unknown) => console.error('outbox sender', error)),
  );
});

/**
 * The first render waits for the catalog of the partner's language. Chained with `then`, not a
 * top-level `await`: a module with top-level await turns off Rolldown's chunk optimisation for the
 * whole build (it would split the first load into some 80 small files; docs/ARCHITECTURE.md#start-up).
 */
function renderApp(): void {
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

void initI18n().then(renderApp);

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

keepInstallOffer();
registerServiceWorkerOnce();
