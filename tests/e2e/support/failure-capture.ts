/**
 * Set-up file of the end-to-end project: when a test fails, a screenshot of every tablet page still
 * open, under test-results/failures/, named after the test and its attempt, and listed on stderr with
 * each page's address. A test that fails once under load and passes on its retry leaves what the
 * tablet showed at the failure, not only the message of the wait that timed out.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeEach } from 'vitest';
import { openTabletPages } from './browser';
import { TEST_RESULTS_DIR } from './paths';

export const FAILURES_DIR = path.join(TEST_RESULTS_DIR, 'failures');

/** Pictures every open tablet page as `<name>-attempt<N>-page<I>.png`; returns the files written. */
export async function captureOpenPages(name: string, attempt: number): Promise<string[]> {
  const pages = openTabletPages().filter((page) => !page.isClosed());
  if (pages.length > 0) await fs.mkdir(FAILURES_DIR, { recursive: true });
  const written: string[] = [];
  for (const [index, page] of pages.entries()) {
    const file = path.join(
      FAILURES_DIR,
      `${name.replace(/[^\w.-]+/g, '-').slice(0, 120)}-attempt${attempt}-page${index}.png`,
    );
    // A page that is closing or hung cannot be pictured: the failure itself is what matters.
    const taken = await page.screenshot({ path: file, fullPage: true, timeout: 10_000 }).then(
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

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    await captureOpenPages(`${path.basename(task.file.name, '.test.ts')}-${task.name}`, task.result?.retryCount ?? 0);
  });
});
