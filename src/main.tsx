/**
 * The page's entry (app.js). It keeps or drops the prerendered page and notes what is typed into it,
 * then starts the app in stages, each its own task: React DOM, then the design system, then the app
 * itself. One module graph runs in one uninterrupted task; three let the browser answer a keystroke
 * or a tap made on the prerendered form between them (docs/ARCHITECTURE.md#start-up).
 */
import { keepPrerenderedPageIfChosen } from './app/prerendered-page';
import { screenCode } from './app/screens';
import { initColorMode } from './lib/color-mode';
import { initI18n, storedLocale } from './lib/i18n';
import { keepInstallOffer } from './lib/pwa';
import { noteServedFields } from './lib/typed-before-hydration';

initColorMode();
const container = document.getElementById('root')!;
// A prerendered page in the language and mode in force stays to be hydrated; what is typed into its
// fields until then becomes the forms' own. One in another language or mode is taken away at once.
if (keepPrerenderedPageIfChosen(container, storedLocale())) noteServedFields(container);
keepInstallOffer();
// The catalog of the partner's language loads alongside the stages. Chained with `then`, not a
// top-level `await`: a module with top-level await turns off Rolldown's chunk optimisation for the
// whole build (it would split the first load into some 80 small files; docs/ARCHITECTURE.md#start-up).
const catalogReady = initI18n();

/** Lets the browser handle what waits (a keystroke, a tap, a frame) before the next stage runs. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function startInStages(): Promise<void> {
  await import('react-dom/client');
  await nextTask();
  await import('./app/theme');
  await nextTask();
  const { startApp } = await import('./app/start-app');
  // The screens' code is named here, in the entry, and nowhere in the shared code (src/app/screens.ts).
  startApp(screenCode, container, catalogReady);
}

void startInStages();
