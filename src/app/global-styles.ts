/**
 * The design system's global styles (reset, base styles, every token's CSS variable in light and
 * dark) are the same on every page: the build writes them once into the HTML as a style element
 * (scripts/prerender-shells.ts), so the browser has them before any script and the page's start
 * neither computes nor hashes them (docs/ARCHITECTURE.md#start-up).
 */
import type { SystemContext } from '@chakra-ui/react';

/** The id of the style element the build writes into every page's head. */
export const GLOBAL_STYLES_ELEMENT_ID = 'design-system-global-styles';

/**
 * Whether the page already carries the global styles: every built page does, and so does the
 * prerender (its pages are built from index.html). The dev server's page does not, and the app then
 * has Chakra insert them as usual.
 */
export function pageCarriesGlobalStyles(): boolean {
  return typeof document === 'undefined' || document.getElementById(GLOBAL_STYLES_ELEMENT_ID) !== null;
}

/**
 * The system as Chakra's provider should see it on a page that carries the global styles: the same
 * system, whose global styles are empty, so the provider inserts nothing and never asks the system
 * to compute them (they are computed on first use: scripts/lazy-design-system-globals.ts).
 */
export function withoutGlobalStyles(system: SystemContext): SystemContext {
  return Object.create(system, { _global: { value: [] } }) as SystemContext;
}
