/**
 * Screenshot baselines (tests/e2e/layout.test.ts): a viewport-sized PNG per screen state under
 * tests/e2e/baselines/, compared pixel by pixel with pixelmatch.
 *
 * Baselines are written only by `npm run test:update-baselines` (UPDATE_BASELINES=1): in any other
 * run a missing baseline fails like a mismatch, so a new state cannot pass by writing its own
 * expectation. On a failure the actual picture and the diff go to test-results/baselines/.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { Locator, Page } from 'playwright-core';
import { fileNameFor, PROJECT_ROOT, TEST_RESULTS_DIR } from './paths';

export const BASELINE_DIR = path.join(PROJECT_ROOT, 'tests', 'e2e', 'baselines');
export const BASELINE_RESULTS_DIR = path.join(TEST_RESULTS_DIR, 'baselines');

/** Set by scripts/update-baselines.ts, the only way baselines are written. */
export function updatingBaselines(): boolean {
  return process.env.UPDATE_BASELINES === '1';
}

/**
 * The same build renders the same pixels on these machines, so the tolerance is for the little that
 * varies (a sub-pixel of anti-aliasing, a glyph's hinting). Two limits, because a share of the whole
 * picture alone is blind to small changes on a large screen: a button moved by 8 px changes far less
 * than 0.5 % of 800×1280, but it changes a dense patch, while noise is scattered.
 */
export const TOLERANCE = {
  /** pixelmatch's colour distance (0–1) under which two pixels count as equal. */
  threshold: 0.1,
  /** At most this share of the picture may differ. */
  maxRatio: 0.005,
  /** And at most `maxInWindow` differing pixels in any `window`×`window` square (here 6 %). */
  window: 32,
  maxInWindow: 64,
} as const;

export interface ImageDifference {
  /** Differing pixels in all, and their share of the picture. */
  pixels: number;
  ratio: number;
  /** Differing pixels in the densest window. */
  densest: number;
  /** Red where the pictures differ, the expected picture faded beneath. */
  diff: PNG;
}

/** Compares two pictures of the same size. */
export function compareImages(expected: PNG, actual: PNG): ImageDifference {
  const { width, height } = expected;
  const diff = new PNG({ width, height });
  const options = { threshold: TOLERANCE.threshold };
  const pixels = pixelmatch(expected.data, actual.data, diff.data, width, height, options);
  const densest =
    pixels === 0
      ? 0
      : pixelmatch(expected.data, actual.data, null, width, height, { ...options, windowSize: TOLERANCE.window });
  return { pixels, ratio: pixels / (width * height), densest, diff };
}

/** Whether a difference is within the tolerance. */
export function withinTolerance(difference: Pick<ImageDifference, 'ratio' | 'densest'>): boolean {
  return difference.ratio <= TOLERANCE.maxRatio && difference.densest <= TOLERANCE.maxInWindow;
}

export interface BaselineOutcome {
  name: string;
  /** match; written (updating only); missing or mismatch (a failure). */
  status: 'match' | 'written' | 'missing' | 'mismatch';
  /** For a failure: what differs and where the pictures are. */
  message: string;
}

export interface BaselineOptions {
  /** Parts whose content varies from run to run (dates, usage figures): painted over in one colour. */
  mask?: Locator[];
  /** CSS applied while the picture is taken only, e.g. to leave out what comes and goes on a timer. */
  style?: string;
}

/**
 * Takes the viewport as it is now and compares it with tests/e2e/baselines/<name>.png. Animations
 * are finished and the caret hidden by Playwright; the page should be settled before (fonts, tiles).
 */
export async function checkBaseline(page: Page, name: string, options: BaselineOptions = {}): Promise<BaselineOutcome> {
  const base = fileNameFor(name);
  const baselineFile = path.join(BASELINE_DIR, `${base}.png`);
  const actualFile = path.join(BASELINE_RESULTS_DIR, `${base}.actual.png`);
  const diffFile = path.join(BASELINE_RESULTS_DIR, `${base}.diff.png`);
  const shot = await page.screenshot({
    animations: 'disabled',
    caret: 'hide',
    scale: 'css',
    mask: options.mask ?? [],
    maskColor: '#FF00FF',
    ...(options.style ? { style: options.style } : {}),
  });
  const expectedBytes = await fs.readFile(baselineFile).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });

  const write = async (file: string, bytes: Buffer) => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, bytes);
  };
  const relative = (file: string) => path.relative(PROJECT_ROOT, file);

  if (expectedBytes === null) {
    if (updatingBaselines()) {
      await write(baselineFile, shot);
      return { name, status: 'written', message: `wrote ${relative(baselineFile)} (new)` };
    }
    await write(actualFile, shot);
    return {
      name,
      status: 'missing',
      message:
        `no baseline ${relative(baselineFile)}; the picture taken is ${relative(actualFile)}. ` +
        'Baselines are written only by `npm run test:update-baselines`.',
    };
  }

  const expected = PNG.sync.read(expectedBytes);
  const actual = PNG.sync.read(shot);
  if (expected.width !== actual.width || expected.height !== actual.height) {
    if (updatingBaselines()) {
      await write(baselineFile, shot);
      return { name, status: 'written', message: `wrote ${relative(baselineFile)} (new size)` };
    }
    await write(actualFile, shot);
    return {
      name,
      status: 'mismatch',
      message:
        `size ${actual.width}×${actual.height} against the baseline's ${expected.width}×${expected.height}; ` +
        `actual: ${relative(actualFile)}`,
    };
  }

  const difference = compareImages(expected, actual);
  if (withinTolerance(difference)) return { name, status: 'match', message: '' };
  if (updatingBaselines()) {
    await write(baselineFile, shot);
    return { name, status: 'written', message: `wrote ${relative(baselineFile)} (changed)` };
  }
  await write(actualFile, shot);
  await write(diffFile, PNG.sync.write(difference.diff));
  const percent = (difference.ratio * 100).toFixed(3);
  return {
    name,
    status: 'mismatch',
    message:
      `${difference.pixels} pixels differ (${percent} %, at most ${TOLERANCE.maxRatio * 100} %), ` +
      `${difference.densest} in the densest ${TOLERANCE.window}×${TOLERANCE.window} square (at most ` +
      `${TOLERANCE.maxInWindow}); expected: ${relative(baselineFile)}, actual: ${relative(actualFile)}, ` +
      `diff: ${relative(diffFile)}`,
  };
}
