/**
 * The language and colour mode, kept in cookies as well as in localStorage: the server and the
 * service worker read them to send the prerendered first screen in the right language, direction and
 * colours (docs/ARCHITECTURE.md#prerendered-first-screens). Nothing secret: a choice of display.
 */
import { COLOR_MODE_COOKIE, KEEP_SHELL_VARIANT_MESSAGE, LANGUAGE_COOKIE } from '../../contract/shell';

const ONE_YEAR_S = 365 * 24 * 60 * 60;

function remember(name: string, value: string): void {
  document.cookie = `${name}=${value}; path=/; max-age=${ONE_YEAR_S}; SameSite=Lax`;
  // The service worker keeps the first screens of the tablet's variant only (src/lib/sw-shells.ts): this one too now.
  if (typeof navigator !== 'undefined') {
    navigator.serviceWorker?.controller?.postMessage({ type: KEEP_SHELL_VARIANT_MESSAGE });
  }
}

export const rememberLanguageForShell = (locale: string) => remember(LANGUAGE_COOKIE, locale);
export const rememberColorModeForShell = (mode: string) => remember(COLOR_MODE_COOKIE, mode);
