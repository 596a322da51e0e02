/**
 * A fake camera for Chromium: a Y4M video the test writes itself, whose picture is a code drawn as
 * black and white modules (a QR code, a Data Matrix, or Code 128 / Code 39 bars, encoded by bwip-js),
 * fed through Chromium's fake capture device (it loops the file).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import bwipjs from 'bwip-js/node';
import { TEST_RESULTS_DIR } from './paths';

const WIDTH = 960;
const HEIGHT = 540;
/** Pixels per module of a 2D symbol, per narrowest bar of a linear one, and a linear symbol's height. */
const MODULE_PX = 8;
const BAR_PX = 2;
const BAR_HEIGHT_PX = 200;

/** The symbologies a garage meets: QR and Data Matrix labels, Code 128 and Code 39 (VIN plates) bars. */
export type Symbology = 'qrcode' | 'datamatrix' | 'code128' | 'code39';

/** Black modules as a grid: `dark(x, y)` for x < width, y < height, in modules. */
interface ModuleGrid {
  width: number;
  height: number;
  moduleWidth: number;
  moduleHeight: number;
  dark(x: number, y: number): boolean;
}

function encode(symbology: Symbology, text: string): ModuleGrid {
  const [symbol] = bwipjs.raw(symbology, text, {});
  if (!symbol) throw new Error(`bwip-js encoded nothing for ${symbology} ${text}`);
  if ('pixs' in symbol) {
    return {
      width: symbol.pixx,
      height: symbol.pixy,
      moduleWidth: MODULE_PX,
      moduleHeight: MODULE_PX,
      dark: (x, y) => symbol.pixs[y * symbol.pixx + x] === 1,
    };
  }
  // Linear: sbs alternates bar and space widths, starting with a bar; one row, drawn tall.
  const bars: boolean[] = symbol.sbs.flatMap((units, index) => Array<boolean>(units).fill(index % 2 === 0));
  return { width: bars.length, height: 1, moduleWidth: BAR_PX, moduleHeight: BAR_HEIGHT_PX, dark: (x) => bars[x]! };
}

/**
 * One frame: the luma plane (Y) with the symbol in its middle on white; chroma (U, V) neutral grey, so
 * the picture is black and white. Y4M 4:2:0: Y is W×H bytes, U and V are (W/2)×(H/2) each.
 */
function frameOf(grid: ModuleGrid): Buffer {
  const symbolWidth = grid.width * grid.moduleWidth;
  const symbolHeight = grid.height * grid.moduleHeight;
  // The quiet zone around it: ten narrow modules, more than any of these symbologies asks.
  if (symbolWidth + 20 * grid.moduleWidth > WIDTH || symbolHeight > HEIGHT) {
    throw new Error("the symbol does not fit the fake camera's picture");
  }
  const luma = Buffer.alloc(WIDTH * HEIGHT, 235);
  const left = Math.floor((WIDTH - symbolWidth) / 2);
  const top = Math.floor((HEIGHT - symbolHeight) / 2);
  for (let row = 0; row < grid.height; row++) {
    for (let col = 0; col < grid.width; col++) {
      if (!grid.dark(col, row)) continue;
      for (let y = 0; y < grid.moduleHeight; y++) {
        const start = (top + row * grid.moduleHeight + y) * WIDTH + left + col * grid.moduleWidth;
        luma.fill(16, start, start + grid.moduleWidth);
      }
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  return Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
}

/** Writes test-results/camera/<name>.y4m showing `text` as a `symbology` symbol; returns its path. */
export async function writeCodeClip(name: string, symbology: Symbology, text: string): Promise<string> {
  const dir = path.join(TEST_RESULTS_DIR, 'camera');
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name}.y4m`);
  const frame = frameOf(encode(symbology, text));
  // A still picture: a few identical frames at 10 per second, looped by Chromium.
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`);
  await fs.writeFile(file, Buffer.concat([header, frame, frame, frame]));
  return file;
}

/**
 * Chromium's flags for a fake camera showing `clip`. granted: the camera permission is given without a
 * prompt (--use-fake-ui-for-media-stream); otherwise the prompt is refused, as a mechanic's "Block".
 */
export function fakeCameraArgs(clip: string, { granted }: { granted: boolean }): string[] {
  return [
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${clip}`,
    granted ? '--use-fake-ui-for-media-stream' : '--deny-permission-prompts',
  ];
}

/** Seven segments per digit (a b c d e f g), as an odometer's display draws them. */
const SEGMENTS: Record<string, string> = {
  '0': 'abcdef',
  '1': 'bc',
  '2': 'abdeg',
  '3': 'abcdg',
  '4': 'bcfg',
  '5': 'acdfg',
  '6': 'acdefg',
  '7': 'abc',
  '8': 'abcdefg',
  '9': 'abcdfg',
};

/** A segment's rectangle in a digit cell of w × h: [x, y, width, height]. */
function segmentRect(segment: string, w: number, h: number): [number, number, number, number] {
  const t = Math.round(w / 6);
  const half = Math.round(h / 2);
  switch (segment) {
    case 'a':
      return [t, 0, w - 2 * t, t];
    case 'b':
      return [w - t, t, t, half - t];
    case 'c':
      return [w - t, half, t, half - t];
    case 'd':
      return [t, h - t, w - 2 * t, t];
    case 'e':
      return [0, half, t, half - t];
    case 'f':
      return [0, t, t, half - t];
    default:
      return [t, half - Math.round(t / 2), w - 2 * t, t];
  }
}

/**
 * Writes test-results/camera/<name>.y4m: a dashboard's odometer at 1920×1080, light digits on a dark
 * panel, with a seeded grain so that it does not compress to nothing (as a real photo would not).
 */
export async function writeOdometerClip(name: string, digits: string): Promise<string> {
  const width = 1920;
  const height = 1080;
  const luma = Buffer.alloc(width * height);
  let seed = 12345;
  for (let i = 0; i < luma.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const y = Math.floor(i / width);
    luma[i] = 40 + Math.round((y / height) * 30) + (seed % 24);
  }
  const cellW = 180;
  const cellH = 300;
  const gap = 40;
  const left = Math.floor((width - digits.length * (cellW + gap)) / 2);
  const top = Math.floor((height - cellH) / 2);
  [...digits].forEach((digit, index) => {
    for (const segment of SEGMENTS[digit] ?? '') {
      const [x, y, w, h] = segmentRect(segment, cellW, cellH);
      for (let row = 0; row < h; row++) {
        const start = (top + y + row) * width + left + index * (cellW + gap) + x;
        luma.fill(230, start, start + w);
      }
    }
  });
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const dir = path.join(TEST_RESULTS_DIR, 'camera');
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name}.y4m`);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  await fs.writeFile(file, Buffer.concat([header, frame, frame]));
  return file;
}
