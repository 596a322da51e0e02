/**
 * The previous commit's PWA, built beside this one, so that the start-up figures are measured for
 * both in the same run on the same machine: a figure from another day, on a machine under another
 * load, says little about what a change did. The tree of that commit is extracted (git archive) into
 * a folder of the system's temporary directory, uses this checkout's node_modules, and is built once
 * per commit; the same server (this checkout's) serves it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../tests/e2e/support/paths';

export interface Baseline {
  /** The commit, short, as `git rev-parse --short` gives it. */
  commit: string;
  /** Its built PWA, for the server's DIST_DIR. */
  distDir: string;
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Builds `revision` (HEAD~1 by default) once and returns where its PWA is; throws when it cannot be built. */
export function prepareBaseline(revision: string, log: (line: string) => void): Baseline {
  const commit = git('rev-parse', '--short', `${revision}^{commit}`);
  const root = path.join(os.tmpdir(), `portal-bench-baseline-${commit}`);
  const distDir = path.join(root, 'dist');
  if (fs.existsSync(path.join(distDir, 'index.html'))) return { commit, distDir };

  log(`  building the previous commit ${commit} in ${root} for comparison…`);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  const tree = execFileSync('git', ['archive', '--format=tar', commit], { cwd: PROJECT_ROOT, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', root], { input: tree });
  try {
    buildTree(root);
  } catch (error) {
    fs.rmSync(distDir, { recursive: true, force: true });
    throw new Error(`the previous commit ${commit} does not build with today's node_modules`, { cause: error });
  }
  return { commit, distDir };
}

/**
 * Builds the PWA of a copy of the source tree at `root` into root/dist, with this checkout's
 * node_modules (linked in when the copy has none) and in a process of its own: the build imports the
 * prerender's renderer, which one Node process would import only once. Throws when it fails.
 */
export function buildTree(root: string): void {
  const modules = path.join(root, 'node_modules');
  if (!fs.existsSync(modules)) fs.symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), modules, 'dir');
  execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
