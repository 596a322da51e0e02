/**
 * Renders public/favicon.svg into the PNG icons the manifest and iOS need, in headless Chromium
 * so the result is exactly what a browser draws. Run: npx tsx scripts/generate-icons.ts
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../tests/e2e/support/browser';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PUBLIC_DIR = path.join(ROOT, 'public');
/** The favicon's own tile colour (and the manifest's theme_color). */
const BRAND_BLUE = '#1c4f8c';

interface IconSpec {
  file: string;
  size: number;
  /** Share of the side the artwork takes, centred. */
  scale: number;
  /** null keeps the transparent corners of the rounded tile; a colour makes the icon full-bleed. */
  background: string | null;
}

const ICONS: IconSpec[] = [
  { file: 'icons/icon-192.png', size: 192, scale: 1, background: null },
  { file: 'icons/icon-512.png', size: 512, scale: 1, background: null },
  // Maskable: launchers crop to any shape within the central 80% circle, so the artwork shrinks to
  // 80% and the tile's blue fills the whole square (it matches the tile, so its corners vanish).
  { file: 'icons/icon-maskable-512.png', size: 512, scale: 0.8, background: BRAND_BLUE },
  // iOS shows transparent pixels as black and rounds the corners itself: opaque, full-bleed.
  { file: 'apple-touch-icon.png', size: 180, scale: 1, background: BRAND_BLUE },
];

function pageFor(svg: string, icon: IconSpec): string {
  const side = `${icon.scale * 100}%`;
  return `<!doctype html><html><head><style>
    html, body { margin: 0; width: 100%; height: 100%; background: ${icon.background ?? 'transparent'}; }
    body { display: flex; align-items: center; justify-content: center; overflow: hidden; }
    svg { display: block; width: ${side}; height: ${side}; }
  </style></head><body>${svg}</body></html>`;
}

/** Width and height from the IHDR chunk, to check what was written without an image library. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

async function render(browser: Browser, svg: string, icon: IconSpec): Promise<void> {
  const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
  try {
    await page.setContent(pageFor(svg, icon));
    const png = await page.screenshot({ type: 'png', omitBackground: icon.background === null });
    const { width, height } = pngSize(png);
    if (width !== icon.size || height !== icon.size) {
      throw new Error(`${icon.file}: rendered ${width}x${height}, expected ${icon.size}x${icon.size}`);
    }
    const target = path.join(PUBLIC_DIR, icon.file);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, png);
    console.log(`${icon.file}: ${width}x${height}, ${png.length} bytes`);
  } finally {
    await page.close();
  }
}

async function main(): Promise<void> {
  const svg = await fs.readFile(path.join(PUBLIC_DIR, 'favicon.svg'), 'utf8');
  const browser = await launchBrowser();
  try {
    for (const icon of ICONS) await render(browser, svg, icon);
  } finally {
    await browser.close();
  }
}

await main();
