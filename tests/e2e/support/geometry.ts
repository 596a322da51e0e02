/**
 * Where things are on a tablet's screen: what a mechanic sees without scrolling. A role or a text
 * found in the page says nothing of whether it is on screen; a dialog's body that scrolls can hold a
 * message below its fold that no one looking at the camera will scroll to.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The tablet sizes the portal is laid out for: portrait 800×1280, landscape 1024×768 and 1280×800. */
export const TABLET_SIZES = [
  { width: 800, height: 1280 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const;

/** Until no animation runs: sizes and places are read at rest, not while a dialog opens or moves. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
}

/**
 * The pixels of `element` that are not on screen now, on each side: cut off by the viewport or by an
 * ancestor that clips or scrolls its content (a dialog's body, a card with overflow hidden).
 */
export function hiddenPart(element: Locator): Promise<{ top: number; bottom: number; left: number; right: number }> {
  return element.evaluate((node) => {
    const box = node.getBoundingClientRect();
    let visible = { top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth };
    for (
      let parent = node.parentElement;
      parent && parent !== document.documentElement;
      parent = parent.parentElement
    ) {
      const style = getComputedStyle(parent);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const clip = parent.getBoundingClientRect();
      visible = {
        top: Math.max(visible.top, clip.top),
        left: Math.max(visible.left, clip.left),
        bottom: Math.min(visible.bottom, clip.bottom),
        right: Math.min(visible.right, clip.right),
      };
    }
    const hidden = (amount: number) => Math.max(0, Math.round(amount));
    return {
      top: hidden(visible.top - box.top),
      bottom: hidden(box.bottom - visible.bottom),
      left: hidden(visible.left - box.left),
      right: hidden(box.right - visible.right),
    };
  });
}

/** `element` is on screen whole, as the page is now (`what` names it in a failure). */
export async function expectShownWhole(page: Page, element: Locator, what: string): Promise<void> {
  await settled(page);
  expect(await hiddenPart(element), `${what}: pixels off screen`).toEqual({ top: 0, bottom: 0, left: 0, right: 0 });
}
