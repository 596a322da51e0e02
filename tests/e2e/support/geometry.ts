/**
 * Where things are on a tablet's screen: what a mechanic sees without scrolling. A role or a text
 * found in the page says nothing of whether it is on screen; a dialog's body that scrolls can hold a
 * message below its fold that no one looking at the camera will scroll to.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { TABLET_VIEWPORTS } from './browser';

/** The tablet sizes the portal is laid out for: portrait 800×1280, landscape 1024×768 and 1280×800. */
export const TABLET_SIZES = [TABLET_VIEWPORTS.portrait, TABLET_VIEWPORTS.landscape, TABLET_VIEWPORTS.wide] as const;

/** Until no animation runs: sizes and places are read at rest, not while a dialog opens or moves. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
}

/** A box on screen, in CSS pixels from the viewport's top left. */
export interface ScreenBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The part of `element`'s box not cut off by an ancestor that clips or scrolls its content (a dialog's
 * body, a card with overflow hidden); the viewport is not counted. Runs in the page (sent there as
 * source, with the layout audit's too), so it uses nothing from outside itself.
 */
export function unclippedBox(element: Element): ScreenBox {
  const box = element.getBoundingClientRect();
  let part = { left: box.left, top: box.top, right: box.right, bottom: box.bottom };
  for (let at = element.parentElement; at && at !== document.body; at = at.parentElement) {
    const style = getComputedStyle(at);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const clip = at.getBoundingClientRect();
    part = {
      left: Math.max(part.left, clip.left),
      top: Math.max(part.top, clip.top),
      right: Math.min(part.right, clip.right),
      bottom: Math.min(part.bottom, clip.bottom),
    };
  }
  return part;
}

/**
 * The pixels of `element` that are not on screen now, on each side: cut off by the viewport or by an
 * ancestor that clips or scrolls its content.
 */
export async function hiddenPart(element: Locator): Promise<ScreenBox> {
  const seen = await element.evaluate(unclippedBox);
  const box = await element.boundingBox();
  const viewport = element.page().viewportSize();
  if (!box || !viewport) throw new Error('the element is not laid out, or the page has no viewport');
  const hidden = (amount: number) => Math.max(0, Math.round(amount));
  return {
    top: hidden(Math.max(seen.top, 0) - box.y),
    left: hidden(Math.max(seen.left, 0) - box.x),
    bottom: hidden(box.y + box.height - Math.min(seen.bottom, viewport.height)),
    right: hidden(box.x + box.width - Math.min(seen.right, viewport.width)),
  };
}

/** `element` is on screen whole, as the page is now (`what` names it in a failure). */
export async function expectShownWhole(page: Page, element: Locator, what: string): Promise<void> {
  await settled(page);
  expect(await hiddenPart(element), `${what}: pixels off screen`).toEqual({ top: 0, bottom: 0, left: 0, right: 0 });
}
