import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react-swc';
import { lingui } from '@lingui/vite-plugin';

/**
 * One command, every suite: the PWA's unit and component tests (jsdom), the API suite twice
 * (embedded PGlite and the PostgreSQL server), and the end-to-end tests in Chromium.
 */
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react({ plugins: [['@lingui/swc-plugin', {}]] }), lingui()],
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: [
            'tests/src/**/*.test.{ts,tsx}',
            'tests/contract/**/*.test.ts',
            'tests/docs/**/*.test.ts',
            'tests/eslint/**/*.test.ts',
            'tests/scripts/**/*.test.ts',
          ],
          setupFiles: ['tests/setup/jsdom.ts'],
          // Component tests type and click through whole forms: on a loaded 2-core machine one can take
          // longer than 5 s, and a timed-out test keeps typing into the next one. Waiting longer changes
          // no assertion.
          testTimeout: 15_000,
          // jsdom component tests wait on Zag's focus moves and Chakra's field links, which lag under a
          // loaded CI machine: as for the browser tests, a failure there is run once more and reported as
          // retried. Locally every failure counts at once.
          retry: process.env.CI ? 1 : 0,
        },
      },
      {
        test: {
          name: 'server-pglite',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-postgres',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          env: { TEST_DB: 'postgres' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
          fileParallelism: false,
          // A real browser on a two-core CI machine: a test that fails once is run once more there,
          // and vitest reports it as retried. Locally every failure counts at once.
          retry: process.env.CI ? 1 : 0,
        },
      },
    ],
  },
});
