import { defineConfig } from '@lingui/conf';

export default defineConfig({
  sourceLocale: 'fr',
  locales: ['fr', 'ar', 'en'],
  fallbackLocales: { default: 'fr' },
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/messages',
      include: ['<rootDir>/src'],
      exclude: [
        '**/node_modules/**',
        '<rootDir>/src/locales/**',
        '<rootDir>/src/features/dashboard/scan/**',
        '<rootDir>/src/features/dashboard/photo/**',
        '<rootDir>/src/features/sync/components/PhotosLine.tsx',
      ],
    },
    {
      // The scanner's words load with the scanner, outside every first load (docs/PRODUCT.md#scanning-and-the-vin-check).
      path: '<rootDir>/src/features/dashboard/scan/locales/{locale}/messages',
      include: ['<rootDir>/src/features/dashboard/scan'],
      exclude: ['<rootDir>/src/features/dashboard/scan/locales/**'],
    },
    {
      // The odometer photo's words load with its parts (the form's field, the storage's photo line), after the form is typeable.
      path: '<rootDir>/src/locales/photo/{locale}/messages',
      include: ['<rootDir>/src/features/dashboard/photo', '<rootDir>/src/features/sync/components/PhotosLine.tsx'],
    },
  ],
  format: 'po',
  compileNamespace: 'ts',
});
