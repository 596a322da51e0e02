import type { Locator } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Taps a dashboard tab until it is selected. Under CI load the first tap on a tab right after Insert
 * was sometimes not taken (the form and the statistics above it re-render then); a mechanic would tap
 * again, and so does the test. Noted for the start-up work, which reworks that first render.
 */
export async function selectTab(trigger: Locator): Promise<void> {
  await expect
    .poll(
      async () => {
        if ((await trigger.getAttribute('aria-selected')) !== 'true') await trigger.click();
        return trigger.getAttribute('aria-selected');
      },
      { timeout: 15_000, interval: 1_000 },
    )
    .toBe('true');
}
