/**
 * Words worded each time they are drawn: a toast still on screen when the mechanic switches language
 * speaks the new one (toaster.tsx).
 */
import { useLingui } from '@lingui/react';
import { createElement, type ReactNode } from 'react';

/** Fixed words (a server's message, already in the language of its request), or `() => t\`…\``. */
export type LiveWords = string | (() => string);

function LiveText({ words }: { words: () => string }) {
  // Read for its re-render on a language change: `words` reads the same i18n object.
  useLingui();
  return words();
}

export function drawn(words: LiveWords): ReactNode {
  return typeof words === 'function' ? createElement(LiveText, { words }) : words;
}
