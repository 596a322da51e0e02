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
          include: ['tests/src/**/*.test.{ts,tsx}', 'tests/contract/**/*.test.ts', 'tests/docs/**/*.test.ts'],
          setupFiles: ['tests/setup/jsdom.ts'],
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
        },
      },
    ],
  },
});
