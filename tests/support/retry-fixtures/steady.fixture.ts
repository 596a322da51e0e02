/** Run only by tests/support/retry-reporter.test.ts: nothing to retry. */
import { expect, it } from 'vitest';

it('passes at once', () => {
  expect([1, 2]).toHaveLength(2);
});
