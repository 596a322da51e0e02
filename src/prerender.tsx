/**
 * The build's server-side entry (scripts/prerender-shells.ts): renders a page's first screen to HTML
 * in one language and colour mode, with the critical CSS Emotion writes beside the elements, for the
 * browser to paint before any script and then hydrate (docs/ARCHITECTURE.md#prerendered-first-screens).
 * Runs in Node at build time only; never part of the PWA's bundle.
 */
import createCache from '@emotion/cache';
import { CacheProvider, Global } from '@emotion/react';
import { StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import type { ShellVariant } from '../contract';
import { App } from './app/App';
import { createRouter } from './app/Router';
import { screenCode } from './app/screens';
import { GLOBAL_STYLES_ELEMENT_ID } from './app/global-styles';
import { system } from './app/theme';
import { setPrerenderColorMode } from './lib/color-mode';
import { i18n } from './lib/i18n';
import { messages as arMessages } from './locales/ar/messages.po';
import { messages as enMessages } from './locales/en/messages.po';
import { messages as frMessages } from './locales/fr/messages.po';

const catalogs = { fr: frMessages, ar: arMessages, en: enMessages };
const { Router } = createRouter(screenCode);

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
        <App ssrPath={pathname} Router={Router} />
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

/**
 * The design system's global styles as one style element for every page's head
 * (src/app/global-styles.ts): the order of its cascade layers first, then the reset, the base styles
 * and every token's CSS variable, exactly as Chakra's provider would insert them through Emotion.
 */
export function renderGlobalStyles(): string {
  const markup = renderToStaticMarkup(
    <CacheProvider value={createCache({ key: 'css' })}>
      <Global styles={system.layers.atRule} />
      <Global styles={system._global} />
    </CacheProvider>,
  );
  const css = [...markup.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]).join('');
  if (!css.includes('--chakra-')) throw new Error('the global styles hold no token variable');
  return `<style id="${GLOBAL_STYLES_ELEMENT_ID}">${css}</style>`;
}
