/**
 * The build's server-side entry (scripts/prerender-shells.ts): renders a page's first screen to HTML
 * in one language and colour mode, with the critical CSS Emotion writes beside the elements, for the
 * browser to paint before any script and then hydrate (docs/ARCHITECTURE.md#prerendered-first-screens).
 * Runs in Node at build time only; never part of the PWA's bundle.
 */
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import type { ShellVariant } from '../contract';
import { App } from './app/App';
import { setPrerenderColorMode } from './lib/color-mode';
import { i18n } from './lib/i18n';
import { messages as arMessages } from './locales/ar/messages.po';
import { messages as enMessages } from './locales/en/messages.po';
import { messages as frMessages } from './locales/fr/messages.po';

const catalogs = { fr: frMessages, ar: arMessages, en: enMessages };

/** The HTML of `#root` for the page at `pathname`, once every lazy part of it has loaded. */
export async function renderShell(pathname: string, { locale, mode }: ShellVariant): Promise<string> {
  i18n.load('fr', frMessages);
  i18n.load(locale, catalogs[locale]);
  i18n.activate(locale);
  setPrerenderColorMode(mode);
  // A cache of its own per page: each page carries all the CSS it needs.
  const cache = createCache({ key: 'css' });
  const { prelude } = await prerenderToNodeStream(
    <CacheProvider value={cache}>
      <StrictMode>
        <App ssrPath={pathname} />
      </StrictMode>
    </CacheProvider>,
    // Every part inline, in place: React outlines a large part behind its fallback and an inline script
    // that moves it in, which would leave a spinner for a browser without script (or with a policy
    // that refuses inline script, as ours does).
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
