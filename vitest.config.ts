import os from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react-swc';
import { lingui } from '@lingui/vite-plugin';
import LongestFirstSequencer, { E2E_PROJECT } from './tests/support/longest-first.ts';
import { measureHostSpeed, scaled, SLOWNESS_ENV } from './tests/support/host-speed.ts';

// Every time budget below, and those the tests set (scaled()), is multiplied by how much slower this
// host is than the machine they were set on (tests/support/host-speed.ts). Measured once per run, in
// this process, and passed to the test processes through the environment.
if (!process.env[SLOWNESS_ENV]) {
  const host = measureHostSpeed();
  process.env[SLOWNESS_ENV] = String(host.slowness);
  console.log(`host: probe ${host.probeMs} ms, ${host.cores} core(s): time budgets x${host.slowness}`);
}

/**
 * One command, every suite: the PWA's unit and component tests (jsdom), the API suite twice
 * (embedded PGlite and the PostgreSQL server), and the end-to-end tests in Chromium. The
 * end-to-end tests run after the others (their group comes second), two files at a time.
 */
/**
 * The API files load the server's modules (Fastify, Drizzle, PGlite's WebAssembly) once per worker
 * instead of once per file: each file builds its own app on its own database (tests/support/test-app.ts)
 * and mocks no module, so nothing of one file reaches the next. On the 2-core machine the PGlite
 * project took 128 s and 237 CPU-seconds instead of 188 s and 356.
 */
const SERVER_FILES_SHARE_MODULES = true;

/** The packages nearly every unit file imports, prebundled for the unit project (see its deps). */
const UNIT_PREBUNDLED = [
  '@chakra-ui/react',
  '@emotion/react',
  '@lingui/core',
  '@lingui/react',
  '@testing-library/react',
  '@testing-library/user-event',
  'dexie',
  'react',
  'react-dom',
  'react-dom/client',
  'react/jsx-runtime',
  'wouter',
];

export default defineConfig({
  test: {
    // Under CI a failed test is run once more; every test that needed it is listed at the end of
    // the run (tests/support/retry-reporter.ts, which also says when a retry fails the run).
    reporters: process.env.CI ? ['default', './tests/support/retry-reporter.ts'] : ['default'],
    // Vitest's default is one worker less than the cores: on the 2-core CI machine one file at a time,
    // with a core idle while a file waits on the processes it started. Two workers ran the server
    // files in 470 s instead of 778 s there. The end-to-end project sets its own count (below).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // The end-to-end files start slowest first (tests/support/longest-first.ts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        plugins: [react({ plugins: [['@lingui/swc-plugin', {}]] }), lingui()],
        // The VM pool's module environment pre-bundles nothing (its cache's `optimized` was always
        // empty), but Vite's default for it scanned index.html for dependencies at every start of a
        // clean clone, and the Lingui macros there only exist under compilation: 14 errors, then
        // "Skipping dependency pre-bundling". Top-level optimizeDeps reaches only the client
        // environment, so the VM one is told itself: discover nothing.
        environments: { __vitest_vm__: { optimizeDeps: { noDiscovery: true, include: [] } } },
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: [
            'tests/src/**/*.test.{ts,tsx}',
            'tests/contract/**/*.test.ts',
            'tests/docs/**/*.test.ts',
            'tests/eslint/**/*.test.ts',
            'tests/scripts/**/*.test.ts',
            'tests/support/**/*.test.ts',
          ],
          setupFiles: ['tests/setup/jsdom.ts'],
          // Each file in a fresh VM context of a reused process, rather than a process of its own: a
          // new context builds jsdom and evaluates the modules again, as a new process did, but Node
          // and the compiled code are not started and loaded again for every file. The project took
          // 95 s and 173 CPU-seconds instead of 166 s and 310 (docs/decisions/0027-unit-files-in-vm-contexts.md).
          // jsdom's own globals then stand where Node's did: tests/setup/jsdom.ts fills the two gaps.
          pool: 'vmForks',
          // Each unit file evaluates the design system (hundreds of modules) again in its own context;
          // bundled once per run into a single module each, the project took 159 s instead of 179 s
          // with a process per file (docs/decisions/0026-cheaper-test-runs.md), 95 s instead of 99 s
          // with a context per file (0027).
          deps: { optimizer: { client: { enabled: true, include: UNIT_PREBUNDLED } } },
          // Component tests type and click through whole forms: on a loaded 2-core machine one can take
          // longer than 5 s, and a timed-out test keeps typing into the next one. Waiting longer changes
          // no assertion.
          testTimeout: scaled(15_000),
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
          globalSetup: ['tests/support/pglite-template.ts', 'tests/support/server-bundle.ts'],
          isolate: !SERVER_FILES_SHARE_MODULES,
          testTimeout: scaled(30_000),
          hookTimeout: scaled(60_000),
        },
      },
      {
        test: {
          name: 'server-postgres',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          env: { TEST_DB: 'postgres' },
          globalSetup: ['tests/support/server-bundle.ts'],
          isolate: !SERVER_FILES_SHARE_MODULES,
          testTimeout: scaled(30_000),
          hookTimeout: scaled(60_000),
        },
      },
      {
        test: {
          name: E2E_PROJECT,
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/server-bundle.ts', 'tests/e2e/support/global-setup.ts'],
          setupFiles: ['tests/setup/e2e.ts'],
          sequence: { groupOrder: 1 },
          testTimeout: scaled(120_000),
          hookTimeout: scaled(240_000),
          // expect.poll waits 1 s by default: on a loaded 2-core machine a page can take longer to
          // hydrate or to show what a poll waits for (a retried test, seen in CI). A poll passes as
          // soon as its condition holds, so waiting longer only spares a failure, never hides one.
          expect: { poll: { timeout: scaled(10_000) } },
          // Two files at a time (docs/decisions/0025-end-to-end-files-two-at-a-time.md): one at a
          // time kept about 1.3 of the 2 cores busy, as each file waits on its portal, its timers and
          // the browser; two took the project from 996 s to 663 s with no retried test. Three at a
          // time retried tests (0022).
          fileParallelism: true,
          maxWorkers: 2,
          // Each worker runs its end-to-end files one after another in one process, loading
          // Playwright and the support modules once instead of once per file (a second or so each).
          // Nothing is mocked in these files, and each starts its own portal and browser
          // (support/setting.ts), so no state passes between them.
          isolate: false,
          // A real browser on a two-core CI machine: a test that fails once is run once more there,
          // and vitest reports it as retried. Locally every failure counts at once.
          retry: process.env.CI ? 1 : 0,
        },
      },
    ],
  },
});
