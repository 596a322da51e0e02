/**
 * A clean install and build print no warning (scripts/quiet-output.ts, called by .ci/run after each
 * step), and every installed package runs on the Node the README promises.
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { noisyLines } from '../../scripts/quiet-output';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** What npm 11 printed on a fresh install before cookie and content-disposition were pinned. */
const ENGINE_WARNING = `
added 1095 packages in 31s
npm warn EBADENGINE Unsupported engine {
npm warn EBADENGINE   package: 'cookie@2.0.2',
npm warn EBADENGINE   required: { node: '>=22' },
npm warn EBADENGINE   current: { node: 'v20.20.2', npm: '11.19.1' }
npm warn EBADENGINE }`;

const UNREVIEWED_SCRIPTS = `
npm warn install-scripts 6 packages have install scripts not yet covered by allowScripts:
npm warn install-scripts   esbuild@0.25.12 (postinstall: node install.js)`;

/** Vite 8's build with vite-plugin-pwa 2.0, before the worker's build asked for one file its way. */
const BUILD_WARNINGS = `
\x1b[36mvite v8.3.8\x1b[39m \x1b[32mbuilding client environment for production...\x1b[39m
dist/assets/StorageAlerts-warning-x1.js     0.56 kB │ gzip:   0.30 kB

 \x1b[33mWARN\x1b[39m  inlineDynamicImports option is deprecated, please use codeSplitting: false instead.
(!) Some chunks are larger than 500 kB after minification.
One of the glob patterns doesn't match any files. Please remove or fix the following: {"globDirectory":"dist","globPattern":"assets/*.{png,svg}"}
PWA v2.0.0
precache  147 entries (4375.27 KiB)`;

describe('a quiet run', () => {
  it('names every engine warning of an install, with its line', () => {
    const noisy = noisyLines('install', ENGINE_WARNING);
    expect(noisy).toHaveLength(5);
    expect(noisy[0]).toMatch(/^3: npm warn EBADENGINE Unsupported engine \{ {2}\[a package wants another Node/);
  });

  it('names install scripts nobody approved or denied', () => {
    expect(noisyLines('install', UNREVIEWED_SCRIPTS)).toHaveLength(2);
  });

  it('names each of the build’s warnings, and not a file name that contains the word', () => {
    const noisy = noisyLines('build', BUILD_WARNINGS);
    expect(noisy.map((line) => line.split(':')[0])).toEqual(['5', '6', '7']);
    expect(noisy[0]).toContain('inlineDynamicImports option is deprecated');
  });

  it('passes a clean install and a clean build', () => {
    expect(noisyLines('install', '\nadded 1095 packages in 31s\n')).toEqual([]);
    expect(noisyLines('build', 'vite v8.3.8 building\n✓ built in 3.70s\nprecache  147 entries\n')).toEqual([]);
  });
});

/** Every package.json under node_modules (scoped ones too), as name@version and its engines.node. */
function installedEngines(): { id: string; node: string }[] {
  const found: { id: string; node: string }[] = [];
  const visit = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const at = path.join(folder, entry.name);
      if (entry.name.startsWith('@')) {
        visit(at);
        continue;
      }
      const manifest = path.join(at, 'package.json');
      if (fs.existsSync(manifest)) {
        const { name, version, engines } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {
          name?: string;
          version?: string;
          engines?: { node?: unknown };
        };
        if (typeof engines?.node === 'string') found.push({ id: `${name}@${version}`, node: engines.node });
      }
      const nested = path.join(at, 'node_modules');
      if (fs.existsSync(nested)) visit(nested);
    }
  };
  visit(path.join(ROOT, 'node_modules'));
  return found;
}

describe('the Node the README promises', () => {
  const promised = (
    JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
  ).engines.node;

  it('runs every installed package, on its lowest version and on this machine’s (npm warns EBADENGINE otherwise)', () => {
    const lowest = semver.minVersion(promised)?.version;
    expect(lowest).toBe('20.19.0');
    const refusing = installedEngines().flatMap(({ id, node }) =>
      [lowest ?? '', process.versions.node]
        .filter((version) => semver.validRange(node) !== null && !semver.satisfies(version, node))
        .map((version) => `${id} wants node ${node}, not ${version}`),
    );
    expect(refusing).toEqual([]);
  });
});
