/** Paths the e2e helpers share, from this file's place so they do not depend on the working directory. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The build the portals serve: dist/, or another one (E2E_DIST_DIR), e.g. to run a test against an older build. */
export const DIST_DIR = process.env.E2E_DIST_DIR
  ? path.resolve(process.env.E2E_DIST_DIR)
  : path.join(PROJECT_ROOT, 'dist');
export const TEST_RESULTS_DIR = path.join(PROJECT_ROOT, 'test-results');

/** A screen's or a test's name as a file name: each run of other characters becomes one dash. */
export function fileNameFor(name: string): string {
  return name.replace(/[^\w.-]+/g, '-');
}
