import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import portal from './eslint/import-direction.js';

export default tseslint.config(
  // .tmp: what the tests and CI write there (logs, a bundled server), never source.
  {
    ignores: [
      'dist',
      'data',
      'coverage',
      'node_modules',
      '.tmp',
      'test-results',
      'src/locales/**/*.ts',
      'bench/results',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // No import circles (docs/ARCHITECTURE.md#layout): a module that imports one that imports it back
    // runs before the other has finished. Type-only imports vanish at build time and are not counted.
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // The TypeScript files a module imports are read too (the default reads only JavaScript).
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createTypeScriptImportResolver()],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, portal },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The tablet's live reads take their dependencies as useEffect does: checked the same way.
      'react-hooks/exhaustive-deps': ['error', { additionalHooks: '^useLocalQuery$' }],
      // The UI reaches the network only through the API client; imports follow docs/ARCHITECTURE.md#layout.
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Use the API client in src/lib/api.' }],
      'portal/import-direction': 'error',
    },
  },
  {
    files: ['src/lib/**/*.{ts,tsx}', 'src/sw.ts'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    // Only the sync engine touches the outbox table; everything else asks src/lib/sync.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/lib/sync/**', 'src/lib/db.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='outbox']",
          message: 'Only src/lib/sync touches the outbox table: use its functions.',
        },
      ],
    },
  },
);
