/** A run of the fixtures below with one retry and the retry reporter, as CI runs the real suites. */
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Vite's cache goes beside the fixtures by default: keep the working tree clean.
  cacheDir: path.join(os.tmpdir(), 'portal-retry-fixtures-vite'),
  test: {
    name: 'fixtures',
    root: import.meta.dirname,
    include: [process.env.RETRY_FIXTURE ?? '*.fixture.ts'],
    retry: 1,
    reporters: ['default', '../retry-reporter.ts'],
  },
});
