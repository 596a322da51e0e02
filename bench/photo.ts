/**
 * Figure 7, the odometer photo on a tablet (docs/ARCHITECTURE.md#odometer-photos): Chromium with its
 * CPU slowed 4x, a signed-in dashboard; a camera-sized picture (4000×3000 JPEG with grain, as a phone's
 * camera gives) handed to the form's picker, then:
 *
 * - encode: from the picture handed over to its preview on show (made small in the worker: long side
 *   1,600 px, WebP under about 200 KB);
 * - typing while it encodes: a KODE ID typed key by key from the moment the picture is handed over,
 *   Interaction to Next Paint read as in figure 2 (the worker keeps the page's main thread free).
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
  typingInpMs: number[];
  /** The photo kept, in bytes, and its long side. */
  bytes: number[];
  longSidePx: number[];
}

/** A 4000×3000 JPEG drawn in the page (gradient, digits, grain), as base64: a camera's picture. */
function cameraPicture(page: Page): Promise<string> {
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
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  });
}

export async function measurePhoto(browser: Browser, baseUrl: string, runs: number): Promise<PhotoRuns> {
  const account = await registerPartner(baseUrl, 'photo');
  const context = await newBenchContext(browser);
  const result: PhotoRuns = { encodeMs: [], typingInpMs: [], bytes: [], longSidePx: [] };
  try {
    const page = await context.newPage();
    await signInThroughForm(page, baseUrl, account);
    await waitForServiceWorkerControl(page);
    const picture = Buffer.from(await cameraPicture(page), 'base64');
    for (let run = 0; run < runs; run++) {
      await page.reload();
      const input = page.locator('input[type="file"][data-photo-file]');
      await input.waitFor({ state: 'attached' });
      await throttleCpu(page, TABLET_CPU_SLOWDOWN);
      await recordInteractions(page);
      const handedAt = Date.now();
      await input.setInputFiles({ name: 'compteur.jpg', mimeType: 'image/jpeg', buffer: picture });
      const preview = page.locator('[data-photo-preview]');
      let encoded = false;
      const shown = preview.waitFor({ timeout: 60_000 }).then(() => {
        encoded = true;
        return Date.now() - handedAt;
      });
      // Typing the whole time the picture is made small, at least one KODE ID.
      do {
        await typeAsMechanic(page, 'input[maxlength="10"]', 'KODE000001');
        await page.keyboard.press('Control+A');
        await page.keyboard.press('Backspace');
      } while (!encoded);
      result.encodeMs.push(await shown);
      result.typingInpMs.push(await worstInteraction(page));
      const kept = await page.evaluate(async () => {
        const image = document.querySelector<HTMLImageElement>('[data-photo-preview]')!;
        await image.decode();
        const size = (await (await fetch(image.src)).blob()).size;
        return { size, longSide: Math.max(image.naturalWidth, image.naturalHeight) };
      });
      result.bytes.push(kept.size);
      result.longSidePx.push(kept.longSide);
    }
  } finally {
    await context.close();
  }
  return result;
}
