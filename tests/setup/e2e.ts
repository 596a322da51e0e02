// Runs before each end-to-end file: a failed test leaves a screenshot of the tablet pages still open
// (tests/e2e/support/failure-capture.ts).
import { beforeEach } from 'vitest';
import { captureFailedTest } from '../e2e/support/failure-capture';

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => captureFailedTest(task));
});
