/**
 * A Vite plugin that puts the signed-out redirect (contract/shell.ts) inline at the top of every
 * page's head, with the style that hides the page while it leaves: a signed-out visitor of `/` is
 * painted the sign-in screen, never the dashboard's frame (docs/ARCHITECTURE.md#prerendered-first-screens).
 */
import type { Plugin } from 'vite';
import { SIGNED_OUT_REDIRECT_SCRIPT } from '../contract/shell.ts';

export const SIGNED_OUT_STYLE = 'html[data-signed-out] #root{visibility:hidden}';

export function signedOutFirstPaint(): Plugin {
  return {
    name: 'garage:signed-out-first-paint',
    transformIndexHtml() {
      return [
        { tag: 'script', children: SIGNED_OUT_REDIRECT_SCRIPT, injectTo: 'head-prepend' },
        { tag: 'style', children: SIGNED_OUT_STYLE, injectTo: 'head' },
      ];
    },
  };
}
