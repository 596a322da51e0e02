/**
 * Figure 7, the odometer photo on a tablet (docs/ARCHITECTURE.md#odometer-photos): Chromium with its
 * CPU slowed 4x, a signed-in dashboard; a camera-sized picture (4000×3000 JPEG with grain, as a phone's
 * camera gives) handed to the form's picker, then:
 *
 * - encode: from the picture handed over to its preview on show (made small in the worker: long side
 *   1,600 px, WebP under about 200 KB);
 * - typing while it encodes: a KODE ID typed key by key from the moment the picture is handed over,
 *   Interaction to Next Paint read as in figure 2 (the worker keeps the page's main thread free);
 * - the same typing with no picture, on the same page, as long: what typing costs there anyway.
 */
import type { Browser, Page } from 'playwright-core';
import {
  newBenchContext,
  signInThroughForm,
  TABLET_CPU_SLOWDOWN,
  throttleCpu,
  waitForServiceWorkerControl,
} from './lib/browser';
import { registerPartner } from './lib/portal';
import { recordInteractions, typeAsMechanic, worstInteraction } from './startup';

export interface PhotoRuns {
  encodeMs: number[];
  /** Typing while the picture is made small. */
  typingInpMs: number[];
  /** The same typing, as long, with no picture: what typing costs on this page anyway. */
  idleTypingInpMs: number[];
  /** The photo kept, in bytes, and its long side. */
  bytes: number[];
  longSidePx: number[];
}

/**
 * A 4000×3000 JPEG drawn in the page (gradient, digits, grain), as a camera's picture, kept in the page
 * as a File: handed to the field later the way the tablet's picker does, without the test tool building
 * megabytes of File on the page's main thread while it is timed.
 */
function drawCameraPicture(page: Page): Promise<void> {
  return page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 4000;
    canvas.height = 3000;
    const context = canvas.getContext('2d')!;
    const gradient = context.createLinearGradient(0, 0, 4000, 3000);
    gradient.addColorStop(0, '#202428');
    gradient.addColorStop(1, '#5a6068');
    context.fillStyle = gradient;
    context.fillRect(0, 0, 4000, 3000);
    const grain = context.getImageData(0, 0, 4000, 3000);
    let seed = 7;
    for (let i = 0; i < grain.data.length; i += 4) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const delta = (seed % 40) - 20;
      grain.data[i] = grain.data[i]! + delta;
      grain.data[i + 1] = grain.data[i + 1]! + delta;
      grain.data[i + 2] = grain.data[i + 2]! + delta;
    }
    context.putImageData(grain, 0, 0);
    context.fillStyle = '#e8f0e0';
    context.font = 'bold 600px monospace';
    context.fillText('128450', 700, 1700);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/jpeg', 0.9));
    Object.assign(window, { benchPicture: new File([blob], 'compteur.jpg', { type: 'image/jpeg' }) });
  });
}

/** Puts the drawn picture into the field's file input, as the tablet's picker does, with its change event. */
function choosePicture(page: Page): Promise<void> {
  return page.evaluate(() => {
    const input = document.querySelector<HTMLInputElement>('input[type="file"][data-photo-file]')!;
    const chosen = new DataTransfer();
    chosen.items.add((window as unknown as { benchPicture: File }).benchPicture);
    input.files = chosen.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const KODE_FIELD = 'input[maxlength="10"]';

/** Types KODE IDs key by key, each then cleared, until `done` says so (at least one). */
async function keepTyping(page: Page, done: () => boolean): Promise<void> {
  do {
    await typeAsMechanic(page, KODE_FIELD, 'KODE000001');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
  } while (!done());
}

/** The dashboard reloaded, a camera's picture drawn, the photo field hydrated, the CPU slowed as a tablet's. */
async function freshDashboard(page: Page): Promise<void> {
  await page.reload();
  await drawCameraPicture(page);
  // The prerendered page carries the field; it takes a picture once React has hydrated it (React then
  // keeps its props on the element: an internal detail, read here only to wait for it).
  await page.waitForFunction(() => {
    const element = document.querySelector('input[type="file"][data-photo-file]');
    return element !== null && Object.keys(element).some((name) => name.startsWith('__reactProps'));
  });
  await throttleCpu(page, TABLET_CPU_SLOWDOWN);
}

/** Hands the picture to the field, types meanwhile; the time to the preview, and the worst interaction. */
async function encodeWhileTyping(page: Page): Promise<{ encodeMs: number; inpMs: number }> {
  await recordInteractions(page);
  const handedAt = Date.now();
  await choosePicture(page);
  let settled = false;
  const shown = page
    .locator('[data-photo-preview]')
    .waitFor({ timeout: 120_000 })
    .then(
      () => Date.now() - handedAt,
      async (error: unknown) => {
        const state = await page.locator('[data-photo]').first().getAttribute('data-photo');
        throw new Error(`no preview after 120 s (the field says ${state})`, { cause: error });
      },
    );
  void shown.finally(() => (settled = true)).catch(() => undefined);
  await keepTyping(page, () => settled);
  return { encodeMs: await shown, inpMs: await worstInteraction(page) };
}

export async function measurePhoto(browser: Browser, baseUrl: string, runs: number): Promise<PhotoRuns> {
  const account = await registerPartner(baseUrl, 'photo');
  const context = await newBenchContext(browser);
  const result: PhotoRuns = { encodeMs: [], typingInpMs: [], idleTypingInpMs: [], bytes: [], longSidePx: [] };
  try {
    const page = await context.newPage();
    await signInThroughForm(page, baseUrl, account);
    await waitForServiceWorkerControl(page);
    for (let run = 0; run < runs; run++) {
      // The same typing with no photo, for comparison: as long as the last encoding took, at least one KODE ID.
      await freshDashboard(page);
      await recordInteractions(page);
      const until = Date.now() + (result.encodeMs.at(-1) ?? 0);
      await keepTyping(page, () => Date.now() >= until);
      result.idleTypingInpMs.push(await worstInteraction(page));

      await freshDashboard(page);
      const { encodeMs, inpMs } = await encodeWhileTyping(page);
      result.encodeMs.push(encodeMs);
      result.typingInpMs.push(inpMs);
      const kept = await page.evaluate(async () => {
        const image = document.querySelector<HTMLImageElement>('[data-photo-preview]')!;
        await image.decode();
        const { photoBytes, photoWidth, photoHeight } = image.dataset;
        return { size: Number(photoBytes), longSide: Math.max(Number(photoWidth), Number(photoHeight)) };
      });
      result.bytes.push(kept.size);
      result.longSidePx.push(kept.longSide);
    }
  } finally {
    await context.close();
  }
  return result;
}
