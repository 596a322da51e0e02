/** Which prerendered page a request gets (contract/shell.ts), as the server and the service worker read it. */
import { describe, expect, it } from 'vitest';
import {
  allShellVariants,
  directionOfLocale,
  prerenderedFile,
  PRERENDERED_PAGES,
  shellVariantName,
  shellVariantOf,
} from '../../contract';

describe('the prerendered pages', () => {
  it('come in every language and colour mode: six variants, each with its own name', () => {
    const names = allShellVariants().map(shellVariantName);
    expect(names.sort()).toEqual(['ar-dark', 'ar-light', 'en-dark', 'en-light', 'fr-dark', 'fr-light']);
  });

  it('take the language and colour mode from the cookies, French and light for what is missing or unknown', () => {
    expect(shellVariantOf('ar', 'dark')).toEqual({ locale: 'ar', mode: 'dark' });
    expect(shellVariantOf('en', undefined)).toEqual({ locale: 'en', mode: 'light' });
    expect(shellVariantOf(undefined, 'dark')).toEqual({ locale: 'fr', mode: 'dark' });
    expect(shellVariantOf('de', 'sepia')).toEqual({ locale: 'fr', mode: 'light' });
    expect(shellVariantOf('__proto__', 'constructor')).toEqual({ locale: 'fr', mode: 'light' });
  });

  it('are files named by page and variant; other paths have none', () => {
    expect(prerenderedFile('/login', { locale: 'ar', mode: 'dark' })).toBe('prerendered/login/ar-dark.html');
    expect(prerenderedFile('/', { locale: 'fr', mode: 'light' })).toBe('prerendered/dashboard/fr-light.html');
    // A query may change what the page shows (`/?tab=history`): the build rendered none.
    expect(prerenderedFile('/', { locale: 'fr', mode: 'light' }, '?tab=history')).toBeNull();
    expect(Object.keys(PRERENDERED_PAGES)).toEqual(
      expect.arrayContaining(['/', '/login', '/register', '/forgot-password']),
    );
    for (const pathname of ['/reset-password', '/nowhere', '/toString', '/__proto__', '/login/']) {
      expect(prerenderedFile(pathname, { locale: 'fr', mode: 'light' })).toBeNull();
    }
  });

  it('are right to left in Arabic only', () => {
    expect([directionOfLocale('ar'), directionOfLocale('fr'), directionOfLocale('en')]).toEqual(['rtl', 'ltr', 'ltr']);
  });
});
