/**
 * The critical CSS a prerendered page carries (docs/ARCHITECTURE.md#prerendered-first-screens), told
 * to Emotion without touching it. Emotion adopts the style elements it wrote on the server by moving
 * each one to the end of the head when its cache is created, even those already there: the browser
 * then detaches and attaches every sheet again and recalculates the page's style. The build writes
 * the page's styles as one element under an attribute of ours instead, and the app's cache is only
 * told which of its styles are already in the document.
 */
import createCache, { type EmotionCache } from '@emotion/cache';
import { PRERENDERED_STYLES_ATTRIBUTE, STYLE_CACHE_KEY } from '../../contract/shell';

/** The browser's Emotion cache, knowing every style the page's HTML already carries: they are not inserted again. */
export function browserStyleCache(): EmotionCache {
  const cache = createCache({ key: STYLE_CACHE_KEY });
  for (const element of document.querySelectorAll(`style[${PRERENDERED_STYLES_ATTRIBUTE}]`)) {
    for (const name of (element.getAttribute(PRERENDERED_STYLES_ATTRIBUTE) ?? '').split(' ')) {
      if (name) cache.inserted[name] = true;
    }
  }
  return cache;
}
