import { defineConfig } from '@lingui/conf';

export default defineConfig({
  sourceLocale: 'fr',
  locales: ['fr', 'ar', 'en'],
  fallbackLocales: { default: 'fr' },
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/messages',
      include: ['<rootDir>/src'],
      exclude: ['**/node_modules/**', '<rootDir>/src/locales/**'],
    },
  ],
  format: 'po',
  compileNamespace: 'ts',
});
