/**
 * When an end-to-end test fails, a screenshot of every tablet page still open, under
 * test-results/failures/, named after the test and its attempt, and listed on stderr with each page's
 * address. A test that fails once under load and passes on its retry leaves what the tablet showed at
 * the failure, not only the message of the wait that timed out. Taken by tests/setup/e2e.ts once the
 * test has failed, and before that by helpers that close a test's context after it
 * (contextPerTest in ./offline.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TestContext } from 'vitest';
import { openTabletPages } from './browser';
import { fileNameFor, TEST_RESULTS_DIR } from './paths';
import { scaled } from '../../support/host-speed';

export const FAILURES_DIR = path.join(TEST_RESULTS_DIR, 'failures');

/** Pictures every open tablet page as `<name>-attempt<N>-page<I>.png`; returns the files written. */
export async function captureOpenPages(name: string, attempt: number): Promise<string[]> {
  const pages = openTabletPages().filter((page) => !page.isClosed());
  if (pages.length > 0) await fs.mkdir(FAILURES_DIR, { recursive: true });
  const written: string[] = [];
  for (const [index, page] of pages.entries()) {
    const file = path.join(FAILURES_DIR, `${fileNameFor(name).slice(0, 120)}-attempt${attempt}-page${index}.png`);
    // A page that is closing or hung cannot be pictured: the failure itself is what matters.
    const taken = await page.screenshot({ path: file, fullPage: true, timeout: scaled(10_000) }).then(
      () => true,
      () => false,
    );
    if (taken) written.push(file);
    process.stderr.write(
      `failure capture: ${page.url()} ${taken ? `-> ${path.relative(process.cwd(), file)}` : '(no screenshot)'}\n`,
    );
  }
  return written;
}

/** Each failed attempt is pictured once, by whichever of the two callers comes first. */
const pictured = new Set<string>();

/** Pictures the open pages of a failed test (its current attempt). */
export async function captureFailedTest(test: TestContext['task']): Promise<void> {
  const name = `${path.basename(test.file.name, '.test.ts')}-${test.name}`;
  const attempt = test.result?.retryCount ?? 0;
  const key = `${test.id}:${attempt}`;
  if (pictured.has(key)) return;
  pictured.add(key);
  await captureOpenPages(name, attempt);
}
