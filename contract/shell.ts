/**
 * The prerendered first screens (docs/ARCHITECTURE.md#prerendered-first-screens): the build renders
 * each page below once per language and colour mode; the server and the service worker pick the one
 * the tablet asked for last from two cookies the page keeps, so a mechanic who chose Arabic in dark
 * mode is painted Arabic, right to left and dark before any script runs.
 */

export const SHELL_LOCALES = ['fr', 'ar', 'en'] as const;
export const SHELL_COLOR_MODES = ['light', 'dark'] as const;
export type ShellLocale = (typeof SHELL_LOCALES)[number];
export type ShellColorMode = (typeof SHELL_COLOR_MODES)[number];

export function directionOfLocale(locale: ShellLocale): 'rtl' | 'ltr' {
  return locale === 'ar' ? 'rtl' : 'ltr';
}

/** Cookie names, the same as the page's own storage keys for these choices. */
export const LANGUAGE_COOKIE = 'partner-language';
export const COLOR_MODE_COOKIE = 'partner-color-mode';

/** The pages whose first screen is in the HTML, and the folder of each under `prerendered/`. */
export const PRERENDERED_PAGES: Readonly<Record<string, string>> = {
  // The signed-in frame: header, title, tabs and the empty entry form, with nothing of a partner.
  '/': 'dashboard',
  '/login': 'login',
  '/register': 'register',
  '/forgot-password': 'forgot-password',
};

/** The folder the build writes the pages to, under the site's root. */
export const PRERENDERED_DIR = 'prerendered';

export interface ShellVariant {
  locale: ShellLocale;
  mode: ShellColorMode;
}

/** The name a variant goes by: in file names and on the page's root (`data-shell`). */
export function shellVariantName({ locale, mode }: ShellVariant): string {
  return `${locale}-${mode}`;
}

/** The variant for these cookie values; French and light where a cookie is missing or unknown. */
export function shellVariantOf(language: string | undefined, colorMode: string | undefined): ShellVariant {
  const locale = SHELL_LOCALES.find((known) => known === language) ?? 'fr';
  const mode = SHELL_COLOR_MODES.find((known) => known === colorMode) ?? 'light';
  return { locale, mode };
}

/** Every variant the build renders. */
export function allShellVariants(): ShellVariant[] {
  return SHELL_LOCALES.flatMap((locale) => SHELL_COLOR_MODES.map((mode) => ({ locale, mode })));
}

/**
 * The site-relative file of a page's variant (`prerendered/login/ar-dark.html`), or null if the page
 * has none. Only an address without a query has one: the build renders each page without a query, and
 * one (`/?tab=history`) can change what the page shows.
 */
export function prerenderedFile(pathname: string, variant: ShellVariant, search = ''): string | null {
  const page = Object.hasOwn(PRERENDERED_PAGES, pathname) ? PRERENDERED_PAGES[pathname] : undefined;
  return page && (search === '' || search === '?')
    ? `${PRERENDERED_DIR}/${page}/${shellVariantName(variant)}.html`
    : null;
}

/** Where the page keeps whether a partner is signed in on this tablet (src/lib/session-mirror.ts). */
export const SESSION_MIRROR_KEY = 'partner-session';

/**
 * The signed-in pages, whose prerendered frame a signed-out visitor must never see (the session gate,
 * docs/PRODUCT.md#the-session-gate).
 */
export const SIGNED_IN_PATHS = ['/', '/profile'] as const;

/**
 * Run inline at the top of every page, before anything is painted: on a signed-in page of a tablet
 * where nobody is signed in (the session mirror names no account), the page hides and goes to
 * /login at once, so a signed-out visitor is painted the sign-in screen, never the dashboard's frame.
 * A tablet whose storage cannot be read is left to the session gate. Allowed by its hash in the
 * Content-Security-Policy (server/plugins/security.ts).
 */
export const SIGNED_OUT_REDIRECT_SCRIPT =
  '(function(){try{' +
  `if(${JSON.stringify(SIGNED_IN_PATHS)}.indexOf(location.pathname)<0)return;` +
  `var m=JSON.parse(localStorage.getItem(${JSON.stringify(SESSION_MIRROR_KEY)})||'null');` +
  'if(m&&m.account)return;' +
  "document.documentElement.setAttribute('data-signed-out','');" +
  "location.replace('/login')" +
  '}catch(e){}})()';

/**
 * The message a page sends its service worker once the language or colour mode changed: keep the
 * prerendered first screens of the variant now chosen (the worker keeps only the tablet's own).
 */
export const KEEP_SHELL_VARIANT_MESSAGE = 'KEEP_SHELL_VARIANT';

/**
 * The message a page sends its service worker to keep the scanner's WebAssembly (`url`, one of the
 * app's assets) where the browser has no barcode reader of its own: the worker fetches and keeps it.
 */
export const KEEP_SCANNER_CODE_MESSAGE = 'KEEP_SCANNER_CODE';
