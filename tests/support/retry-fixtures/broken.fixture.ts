/** Run only by tests/support/retry-reporter.test.ts: a test that fails every attempt. */
import { expect, it } from 'vitest';

it('never passes', () => {
  expect('sent').toBe('stored');
});
