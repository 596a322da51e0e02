/**
 * Light and dark (docs/PRODUCT.md#the-header). Chakra v3 switches its tokens on a `dark` class on <html>.
 * The choice is remembered; until one is made the tablet's own preference applies.
 */
import { useSyncExternalStore } from 'react';
import { COLOR_MODE_COOKIE } from '../../contract/shell';
import { rememberColorModeForShell } from './shell-cookies';
import { createStore } from './store';

export type ColorMode = 'light' | 'dark';
/** The same name as the cookie the server reads (src/lib/shell-cookies.ts). */
export const COLOR_MODE_STORAGE_KEY = COLOR_MODE_COOKIE;

function systemMode(): ColorMode {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function storedMode(): ColorMode | null {
  try {
    const value = localStorage.getItem(COLOR_MODE_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

const mode = createStore<ColorMode>('light');

function apply(next: ColorMode) {
  const root = document.documentElement;
  root.classList.toggle('dark', next === 'dark');
  root.classList.toggle('light', next === 'light');
  // Written only when it changes: even the same value makes the browser restyle the whole page, a
  // long task at start-up on a prerendered page that already carries it.
  if (root.style.colorScheme !== next) root.style.colorScheme = next;
  rememberColorModeForShell(next);
  mode.set(next);
}

export function initColorMode() {
  apply(storedMode() ?? systemMode());
}

export function setColorMode(next: ColorMode) {
  try {
    localStorage.setItem(COLOR_MODE_STORAGE_KEY, next);
  } catch {
    // The choice lasts for this visit only.
  }
  apply(next);
}

/** The mode the build renders a prerendered page in (src/prerender.tsx), where there is no document. */
export function setPrerenderColorMode(next: ColorMode) {
  mode.set(next);
}

/** The mode in force, outside React: the page hydrates a prerendered screen only if it is in this mode. */
export function currentColorMode(): ColorMode {
  return mode.get();
}

export function useColorMode(): [ColorMode, (next: ColorMode) => void] {
  const current = useSyncExternalStore(
    mode.subscribe,
    currentColorMode,
    // A prerendered page is hydrated only when it was rendered in the mode in force (src/app/start-app.tsx).
    currentColorMode,
  );
  return [current, setColorMode];
}
