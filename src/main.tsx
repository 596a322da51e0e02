/**
 * PROTOTYPE (issue 46, the boldest route for typing from the first paint): a prerendered page runs none
 * of the app's code until the mechanic has left the page alone for a moment. Keystrokes go to the
 * HTML's own fields meanwhile; the app starts (modules, hydration) once no key or tap came for
 * QUIET_MS, and takes over what was typed (src/lib/typed-before-hydration.ts).
 */
const QUIET_MS = 600;

function whenLeftAlone(): Promise<void> {
  return new Promise((resolve) => {
    let timer = 0;
    const arm = () => {
      clearTimeout(timer);
      timer = window.setTimeout(done, QUIET_MS);
    };
    const events = ['keydown', 'pointerdown', 'input'] as const;
    const done = () => {
      for (const type of events) removeEventListener(type, arm, true);
      resolve();
    };
    for (const type of events) addEventListener(type, arm, true);
    arm();
  });
}

const root = document.getElementById('root');
// A submission before the app runs would be the browser's own: held, and asked again once the app's
// code has noted the page's forms (it then makes it once they are hydrated).
let submitted: HTMLFormElement | null = null;
const holdSubmit = (event: Event) => {
  event.preventDefault();
  if (event.target instanceof HTMLFormElement) submitted = event.target;
};
if (root?.dataset.shell !== undefined) {
  addEventListener('submit', holdSubmit, true);
  void whenLeftAlone()
    .then(() => {
      removeEventListener('submit', holdSubmit, true);
      return import('./start');
    })
    .then(() => submitted?.requestSubmit());
} else void import('./start');
