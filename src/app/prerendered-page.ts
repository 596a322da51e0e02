/**
 * The page the HTML brought (docs/ARCHITECTURE.md#prerendered-first-screens): whether it is in the
 * tablet's language and colour mode, and so can be hydrated where it stands.
 */
import { shellVariantName } from '../../contract/shell';
import { currentColorMode } from '../lib/color-mode';
import type { Locale } from '../lib/i18n';

/** Whether #root holds a page prerendered in this language and the colour mode in force. */
export function servedIn(container: HTMLElement, locale: Locale): boolean {
  return container.dataset.shell === shellVariantName({ locale, mode: currentColorMode() });
}

/**
 * Keeps a prerendered page in the tablet's language and colour mode (true), and takes away at once
 * one in another (its cookies were missing or older than its own storage), so that the mechanic
 * neither reads it nor types into fields the app is about to replace: the app renders that page
 * from nothing.
 */
export function keepPrerenderedPageIfChosen(container: HTMLElement, locale: Locale): boolean {
  if (container.dataset.shell === undefined) return false;
  if (servedIn(container, locale)) return true;
  container.replaceChildren();
  delete container.dataset.shell;
  return false;
}
