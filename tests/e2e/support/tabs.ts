import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { scaled } from '../../support/host-speed';

/**
 * Taps a dashboard tab once and waits until it is selected: one tap must be enough, right after an
 * Insert too (the emptied form raises no message that would move the page under the finger).
 */
export async function selectTab(trigger: Locator): Promise<void> {
  if ((await trigger.getAttribute('aria-selected')) !== 'true') await trigger.click();
  await expect.poll(() => trigger.getAttribute('aria-selected'), { timeout: scaled(5_000) }).toBe('true');
}
