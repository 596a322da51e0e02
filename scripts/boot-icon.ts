/**
 * A Vite plugin that puts the app icon inline in index.html's boot screen, where the placeholder
 * comment stands: painted with the HTML, no request to wait for. The icon is read from
 * public/favicon.svg, the one source every icon is made from (scripts/generate-icons.ts renders the
 * PNGs from it too), so the boot screen cannot drift from it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';

const PLACEHOLDER = '<!-- boot-icon -->';
const ICON_FILE = 'favicon.svg';
/** CSS pixels: the icon's size on the boot screen. */
const SIZE = 72;

function sizedIcon(svg: string): string {
  const opening = '<svg ';
  if (!svg.startsWith(opening)) throw new Error(`${ICON_FILE} does not start with an <svg> element`);
  // Decorative: the boot screen's container already says it is busy.
  return `<svg width="${SIZE}" height="${SIZE}" aria-hidden="true" ${svg.slice(opening.length)}`;
}

export function bootIcon(): Plugin {
  let publicDir = '';
  return {
    name: 'garage:boot-icon',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    async transformIndexHtml(html) {
      if (!html.includes(PLACEHOLDER)) throw new Error(`index.html has no ${PLACEHOLDER} for the boot icon`);
      const svg = (await fs.readFile(path.join(publicDir, ICON_FILE), 'utf8')).trim();
      return html.replace(PLACEHOLDER, sizedIcon(svg));
    },
  };
}
