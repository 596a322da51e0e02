/**
 * A Vite plugin that makes Chakra's system compute its global styles on first use instead of when
 * it is created. `createSystem` builds the CSS of every token (light and dark), the reset and the
 * base styles as soon as it runs, about 50 ms of a tablet's start at 4x CPU slowdown; the built
 * pages carry those styles in their HTML (src/app/global-styles.ts), so the app never uses them.
 *
 * It rewrites two statements of one file of the pinned @chakra-ui/react. If either is not found
 * (an upgrade changed the file), the build stops and says so, rather than silently losing the saving.
 */
import type { Plugin } from 'vite';

const SYSTEM_MODULE = /@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]styled-system[\\/]system\.js$/;
const EAGER_GLOBALS = 'const _global = [getPreflightCss(), getGlobalCss(), getTokenCss()];';
const GLOBALS_PROPERTY = '    _global,\n';
const LAZY_GLOBALS = 'let _globalOnFirstUse;';
const GLOBALS_GETTER =
  '    get _global() {\n' +
  '      return (_globalOnFirstUse ??= [getPreflightCss(), getGlobalCss(), getTokenCss()]);\n' +
  '    },\n';

function replaceOnce(code: string, search: string, replacement: string): string {
  const at = code.indexOf(search);
  if (at < 0 || code.indexOf(search, at + 1) >= 0) {
    throw new Error(
      `lazy-design-system-globals: "${search.trim()}" is not found once in Chakra's system.js; ` +
        'update scripts/lazy-design-system-globals.ts for this version of @chakra-ui/react',
    );
  }
  return code.slice(0, at) + replacement + code.slice(at + search.length);
}

/** The source of Chakra's system.js with its global styles computed on first use. */
export function lazyGlobalsSource(code: string): string {
  return replaceOnce(replaceOnce(code, EAGER_GLOBALS, LAZY_GLOBALS), GLOBALS_PROPERTY, GLOBALS_GETTER);
}

export function lazyDesignSystemGlobals(): Plugin {
  let rewritten = false;
  return {
    name: 'garage:lazy-design-system-globals',
    apply: 'build',
    transform(code, id) {
      if (!SYSTEM_MODULE.test(id.split('?')[0]!)) return null;
      rewritten = true;
      return { code: lazyGlobalsSource(code), map: null };
    },
    buildEnd(error) {
      if (!error && !rewritten) {
        this.error("lazy-design-system-globals: Chakra's styled-system/system.js was not part of the build");
      }
    },
  };
}
