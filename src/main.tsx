/**
 * The page's entry, kept small (docs/ARCHITECTURE.md#start-up): it settles what the page shows before
 * its first paint (colour mode; a prerendered page in another language or mode taken away; fields
 * typed into before the app's code arrives noted), then lets the browser paint the page's HTML, and
 * only then runs the app (src/boot.tsx), whose code has been fetched meanwhile (the HTML preloads it).
 * Evaluated at once, that code held the first paint of a prerendered page back by the whole time it
 * takes to run.
 */
import { keepPrerenderedPageIfChosen } from './app/prerendered-page';
import { initColorMode } from './lib/color-mode';
import { storedLocale } from './lib/locale-choice';
import { keepInstallOffer } from './lib/pwa';
import { noteServedFields } from './lib/typed-before-hydration';

initColorMode();
const container = document.getElementById('root')!;
// What is typed into the page's fields while the app's code loads becomes the forms' own.
if (keepPrerenderedPageIfChosen(container, storedLocale())) noteServedFields(container);
keepInstallOffer();

/** Runs `start` once the browser has painted; at once in a hidden tab, which paints nothing. */
function afterNextPaint(start: () => void): void {
  if (document.visibilityState === 'hidden') start();
  // A task queued from an animation frame runs once that frame has been painted.
  else requestAnimationFrame(() => setTimeout(start, 0));
}

afterNextPaint(() => void import('./boot'));
