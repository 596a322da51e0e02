/**
 * Light and dark (docs/PRODUCT.md#the-header). Chakra v3 switches its tokens on a `dark` class on <html>.
 * The choice is remembered; until one is made the tablet's own preference applies.
 */
import { useSyncExternalStore } from 'react';

export type ColorMode = 'light' | 'dark';
export const COLOR_MODE_STORAGE_KEY = 'partner-color-mode';

const listeners = new Set<() => void>();

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

let mode: ColorMode = 'light';

function apply(next: ColorMode) {
  mode = next;
  const root = document.documentElement;
  root.classList.toggle('dark', next === 'dark');
  root.classList.toggle('light', next === 'light');
  root.style.colorScheme = next;
  listeners.forEach((listener) => listener());
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

export function useColorMode(): [ColorMode, (next: ColorMode) => void] {
  const current = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => mode,
  );
  return [current, setColorMode];
}
