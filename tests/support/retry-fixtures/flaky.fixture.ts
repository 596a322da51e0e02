/** Run only by tests/support/retry-reporter.test.ts: one steady test, one that passes on its retry. */
import { describe, expect, it } from 'vitest';

let attempts = 0;

describe('outbox', () => {
  it('passes at once', () => {
    expect(1 + 1).toBe(2);
  });

  it('passes on its second attempt', () => {
    attempts += 1;
    expect(attempts, 'first attempt races the sync').toBe(2);
  });
});
