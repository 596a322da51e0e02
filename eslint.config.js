import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import fs from 'node:fs';

/**
 * The PWA's layout (docs/ARCHITECTURE.md#layout), as import-x's restricted zones:
 * - shared code (src/lib, src/components, src/hooks, src/config, src/locales) never imports a feature or the app;
 * - a feature never imports another feature or the app: features are composed in src/app;
 * - IndexedDB (dexie, src/lib/db and the screens' way to it, src/lib/local-store and local-query) is reached only from
 *   src/lib and from a feature's own data modules (src/features/<name>/data);
 * - the entries module (src/lib/entries) is reached only through its doors.
 */
const FEATURES = fs.readdirSync('src/features');
const SHARED = ['./src/lib', './src/components', './src/hooks', './src/config', './src/locales'];
/** Everything a screen is made of: no door to IndexedDB there. */
const SCREENS = [
  './src/app',
  './src/components',
  './src/hooks',
  './src/features/*/!(data)/**',
  './src/features/*/*.{ts,tsx}',
];
/** The entries module's public doors (src/lib/entries/index.ts says what each one holds). */
export const ENTRIES_DOORS = ['index.ts', 'hooks.ts', 'history.ts', 'timeline.ts', 'words.ts', 'worker.ts'];
/** Who may use only those doors: the screens, the form, the sync panel, the service worker and the start. */
const OUTSIDE_ENTRIES = [
  './src/app',
  './src/features',
  './src/components',
  './src/hooks',
  './src/config',
  './src/*.{ts,tsx}',
];

const LAYOUT_ZONES = [
  {
    target: SHARED,
    from: ['./src/features', './src/app'],
    message: 'Shared code (src/lib, src/components, src/hooks, src/config) never imports a feature or the app.',
  },
  { target: './src/features', from: './src/app', message: 'A feature never imports the app; compose it in src/app.' },
  ...FEATURES.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message: `Features never import each other (${name} → another feature): compose them in src/app or move the shared part to src/components or src/lib.`,
  })),
  {
    target: SCREENS,
    from: ['./src/lib/db.ts', './src/lib/local-store.ts', './src/lib/local-query.ts'],
    message:
      'IndexedDB is reached through src/lib or the feature’s data modules (src/features/<name>/data), never from here.',
  },
  {
    target: OUTSIDE_ENTRIES,
    from: './src/lib/entries',
    except: ENTRIES_DOORS.map((door) => `./${door}`),
    message: `Entries are reached through their doors (src/lib/entries/{${ENTRIES_DOORS.join(',')}}), never their internals.`,
  },
];

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
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The tablet's live reads take their dependencies as useEffect does: checked the same way.
      'react-hooks/exhaustive-deps': ['error', { additionalHooks: '^useLocalQuery$' }],
      // The UI reaches the network only through the API client; imports follow docs/ARCHITECTURE.md#layout.
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Use the API client in src/lib/api.' }],
      'import-x/no-restricted-paths': ['error', { zones: LAYOUT_ZONES }],
    },
  },
  {
    files: ['src/lib/**/*.{ts,tsx}', 'src/sw.ts'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    // Dexie itself, like src/lib/db: only src/lib and a feature's data modules.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/lib/**', 'src/features/*/data/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'dexie',
              message:
                'IndexedDB is reached through src/lib or the feature’s data modules (src/features/<name>/data), never from here.',
            },
          ],
        },
      ],
    },
  },
  {
    // Only the entries module touches the outbox table; everything else uses its doors.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/lib/entries/**', 'src/lib/db.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='outbox']",
          message: 'Only src/lib/entries touches the outbox table: use its doors.',
        },
      ],
    },
  },
);
