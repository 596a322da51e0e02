/** Emotion's cache told which styles the prerendered page carries (src/app/prerendered-styles.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import { browserStyleCache } from '../../../src/app/prerendered-styles';

afterEach(() => document.head.replaceChildren());

describe('the browser’s style cache', () => {
  it('knows every style the page’s critical CSS names, and leaves that element where it stands', () => {
    document.head.innerHTML =
      '<style id="first"></style><style data-prerendered-styles="abc def">.css-abc{}.css-def{}</style><meta name="last">';
    const critical = document.head.children[1];
    const cache = browserStyleCache();
    expect(cache.inserted).toMatchObject({ abc: true, def: true });
    expect(document.head.children[1]).toBe(critical);
    expect(document.head.lastElementChild?.getAttribute('name')).toBe('last');
  });

  it('knows none on a page without critical CSS', () => {
    expect(Object.keys(browserStyleCache().inserted)).toEqual([]);
  });
});
