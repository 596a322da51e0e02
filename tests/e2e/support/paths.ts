/** Paths the e2e helpers share, from this file's place so they do not depend on the working directory. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const DIST_DIR = path.join(PROJECT_ROOT, 'dist');
export const TEST_RESULTS_DIR = path.join(PROJECT_ROOT, 'test-results');
