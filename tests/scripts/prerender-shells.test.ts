/** How a prerendered page is put into the built index.html (scripts/prerender-shells.ts). */
import { describe, expect, it } from 'vitest';
import { shellDocument, withGlobalStyles } from '../../scripts/prerender-shells';

const TEMPLATE = `<!doctype html>
<html lang="fr" dir="ltr">
  <head>
    <title>Portail</title>
    <script type="module" src="/assets/index.js"></script>
  </head>
  <body>
    <div id="root">
      <div class="boot" aria-busy="true"><svg></svg></div>
    </div>
  </body>
</html>`;

const BODY =
  '<style data-emotion="css-global abc">:root{--x:1}</style><div class="css-1"><style data-emotion="css def">.css-def{content:"$&"}</style><h1 class="css-def">Prix : 10 $\'</h1></div>';

describe('a prerendered page in the built index.html', () => {
  const document = shellDocument(TEMPLATE, { locale: 'ar', mode: 'dark' }, BODY);

  it('names its language, direction and colours on <html>', () => {
    expect(document).toContain('<html lang="ar" dir="rtl" class="dark" style="color-scheme: dark">');
  });

  it('replaces the boot screen with the page, marked with its variant, and keeps the script', () => {
    expect(document).not.toContain('class="boot"');
    expect(document).toContain(
      '<div id="root" data-shell="ar-dark"><div class="css-1"><h1 class="css-def">Prix : 10 $\'</h1></div></div>',
    );
    expect(document).toContain('<script type="module" src="/assets/index.js"></script>');
  });

  it('moves Emotion’s styles to the head, in their order and unchanged, marked as moved', () => {
    const head = document.slice(0, document.indexOf('</head>'));
    expect(head).toContain(
      '<style data-s="" data-emotion="css-global abc">:root{--x:1}</style><style data-s="" data-emotion="css def">.css-def{content:"$&"}</style>',
    );
    expect(document.slice(document.indexOf('<body>'))).not.toContain('<style');
  });

  it('is painted only once #root is parsed to its end, not half-drawn', () => {
    expect(document).toContain('<head><link rel="expect" href="#root" blocking="render">');
  });

  it('refuses a template without the boot screen to replace', () => {
    expect(() =>
      shellDocument('<html><head></head><body></body></html>', { locale: 'fr', mode: 'light' }, BODY),
    ).toThrow(/#root/);
  });
});

describe('the design system’s global styles in the built index.html', () => {
  const GLOBAL = '<style id="design-system-global-styles">@layer reset,base,tokens,recipes;:where(html){--x:1}</style>';
  const template = withGlobalStyles(TEMPLATE, GLOBAL);

  it('are in the head of every page, the prerendered ones too', () => {
    expect(template.slice(0, template.indexOf('</head>'))).toContain(GLOBAL);
    expect(shellDocument(template, { locale: 'fr', mode: 'light' }, BODY)).toContain(GLOBAL);
  });

  it('come before every style Emotion writes, so the order of the cascade layers is declared first', () => {
    const document = shellDocument(template, { locale: 'fr', mode: 'light' }, BODY);
    expect(document.indexOf(GLOBAL)).toBeLessThan(document.indexOf('<style data-s=""'));
  });

  it('refuse a template without a head', () => {
    expect(() => withGlobalStyles('<html><body></body></html>', GLOBAL)).toThrow(/<\/head>/);
  });
});
