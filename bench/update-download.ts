/**
 * What a tablet downloads for an update that changes one screen's code (issue 46: ≤ 300 KB). The
 * working tree (uncommitted changes included) is copied to a temporary folder and built; one screen's
 * code is changed there (the History tab's, a part of the dashboard loaded on demand) and built again.
 * A tablet that holds the first build gets the second through its service worker: the worker script
 * itself, every precache entry whose cache key (address and revision) is not in its precache yet, and
 * the prerendered pages of its own variant (French, light: a new tablet's) whose revision changed
 * (src/lib/sw-shells.ts). Each file is counted as the portal's server sends it (server/plugins/static-site.ts):
 * its Brotli copy where the build made one (every browser sends `Accept-Encoding: br` over HTTPS), the
 * file itself otherwise (files under 1 KB); headers are not counted. dist/ is never touched.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prerenderedFile, PRERENDERED_PAGES, type ShellVariant } from '../contract/shell';
import { isPrerenderedEntry, shellRevisions } from '../src/lib/sw-shells';
import { PROJECT_ROOT } from '../tests/e2e/support/paths';
import { buildTree } from './lib/baseline';
import { kb } from './lib/stats';

export const UPDATE_DOWNLOAD_GOAL_KB = 300;

/** The tablet's variant of the prerendered pages: a new tablet's (no cookie yet). */
const TABLET_VARIANT: ShellVariant = { locale: 'fr', mode: 'light' };

/** How many of the largest downloaded files the report names. */
const LARGEST = 5;

/**
 * The one-screen change: a constant appended to the History tab's component and used by it (its
 * name in React's developer tools), so the screen's code, and only it, is different.
 */
export const SCREEN_CHANGE = {
  file: 'src/features/dashboard/components/HistoryTable.tsx',
  marker: 'update-download-bench-change',
  code: [
    '',
    '/** Added by bench/update-download.ts: one screen whose code changed, as in an update. */',
    "export const HISTORY_TABLE_REVISION = 'update-download-bench-change';",
    'HistoryTable.displayName = `HistoryTable (${HISTORY_TABLE_REVISION})`;',
    '',
  ].join('\n'),
} as const;

export interface DownloadedFile {
  /** Path under the site's root, e.g. assets/DashboardPage-abc123.js. */
  file: string;
  /** Why the tablet fetches it: a precache entry, one of its prerendered pages, or the worker. */
  kind: 'precache' | 'shell' | 'worker';
  /** As sent: Brotli, or the file itself where the build made no compressed copy. */
  encoding: 'br' | 'identity';
  bytes: number;
}

export interface UpdateDownload {
  /** The source file changed between the two builds. */
  changedFile: string;
  /** The files of the second build whose code holds the change (the screen's chunk). */
  changedChunks: string[];
  /** Everything the tablet downloads, in KB as sent. */
  kb: number;
  files: number;
  byKind: Record<DownloadedFile['kind'], { files: number; kb: number }>;
  /** The largest downloaded files, largest first. */
  largest: { file: string; kind: DownloadedFile['kind']; kb: number }[];
  /** The precache entries of the second build and how many of them are new. */
  precacheEntries: number;
  /** Seconds for the two builds. */
  buildS: number;
}

interface ManifestEntry {
  url: string;
  revision: string | null;
}

/** The precache manifest vite-plugin-pwa injected into a build's sw.js. */
export function precacheManifest(distDir: string): ManifestEntry[] {
  const worker = fs.readFileSync(path.join(distDir, 'sw.js'), 'utf8');
  return [...worker.matchAll(/\{"revision":(?:"([^"]*)"|null),"url":"([^"]+)"\}/g)].map((match) => ({
    url: match[2]!,
    revision: match[1] ?? null,
  }));
}

/** Workbox's cache key of an entry: a revisioned entry is kept under its revision. */
const cacheKey = (entry: ManifestEntry) =>
  entry.revision === null ? entry.url : `${entry.url}?__WB_REVISION__=${entry.revision}`;

/** A file of a build as the server sends it (its .br copy where there is one). */
function served(distDir: string, file: string, kind: DownloadedFile['kind']): DownloadedFile {
  const full = path.join(distDir, file);
  if (fs.existsSync(`${full}.br`)) return { file, kind, encoding: 'br', bytes: fs.statSync(`${full}.br`).size };
  return { file, kind, encoding: 'identity', bytes: fs.statSync(full).size };
}

/** What a tablet holding build `before` downloads to run build `after`. */
export function updateDownloads(before: string, after: string): DownloadedFile[] {
  const oldManifest = precacheManifest(before);
  const newManifest = precacheManifest(after);
  const kept = new Set(oldManifest.filter((entry) => !isPrerenderedEntry(entry)).map(cacheKey));
  const downloads = newManifest
    .filter((entry) => !isPrerenderedEntry(entry) && !kept.has(cacheKey(entry)))
    .map((entry) => served(after, entry.url, 'precache'));
  const oldShells = shellRevisions(oldManifest);
  const newShells = shellRevisions(newManifest);
  for (const pathname of Object.keys(PRERENDERED_PAGES)) {
    const file = prerenderedFile(pathname, TABLET_VARIANT)!;
    const revision = newShells.get(`/${file}`);
    if (revision !== undefined && revision !== oldShells.get(`/${file}`)) downloads.push(served(after, file, 'shell'));
  }
  const worker = (dir: string) => fs.readFileSync(path.join(dir, 'sw.js'));
  if (!worker(before).equals(worker(after))) downloads.push(served(after, 'sw.js', 'worker'));
  return downloads;
}

/** The working tree's files (tracked and untracked, less what git ignores) copied to `root`. */
function copyWorkingTree(root: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    const from = path.join(PROJECT_ROOT, file);
    // A tracked file deleted in the working tree is not part of it.
    if (!fs.existsSync(from) || fs.statSync(from).isDirectory()) continue;
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.copyFileSync(from, path.join(root, file));
  }
}

/** The built files of `dir` (less the compressed copies) whose content holds `marker`. */
function filesHolding(dir: string, marker: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => /\.(js|html)$/.test(file) && fs.readFileSync(path.join(dir, file), 'utf8').includes(marker))
    .sort();
}

export async function measureUpdateDownload(log: (line: string) => void): Promise<UpdateDownload> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-update-'));
  try {
    const tree = path.join(work, 'tree');
    const before = path.join(work, 'before');
    const after = path.join(work, 'after');
    copyWorkingTree(tree);
    const started = Date.now();
    log('  building the working tree…');
    buildTree(tree);
    fs.renameSync(path.join(tree, 'dist'), before);
    log(`  building it again with ${SCREEN_CHANGE.file} changed…`);
    fs.appendFileSync(path.join(tree, SCREEN_CHANGE.file), SCREEN_CHANGE.code);
    buildTree(tree);
    fs.renameSync(path.join(tree, 'dist'), after);
    const buildS = Math.round((Date.now() - started) / 1000);

    const changedChunks = filesHolding(after, SCREEN_CHANGE.marker);
    if (changedChunks.length === 0) throw new Error(`the change to ${SCREEN_CHANGE.file} reached no built file`);
    const downloads = updateDownloads(before, after).sort((a, b) => b.bytes - a.bytes);
    const total = (files: DownloadedFile[]) => files.reduce((sum, file) => sum + file.bytes, 0);
    const byKind = {} as UpdateDownload['byKind'];
    for (const kind of ['precache', 'shell', 'worker'] as const) {
      const files = downloads.filter((file) => file.kind === kind);
      byKind[kind] = { files: files.length, kb: kb(total(files)) };
    }
    return {
      changedFile: SCREEN_CHANGE.file,
      changedChunks,
      kb: kb(total(downloads)),
      files: downloads.length,
      byKind,
      largest: downloads.slice(0, LARGEST).map((file) => ({ file: file.file, kind: file.kind, kb: kb(file.bytes) })),
      precacheEntries: precacheManifest(after).filter((entry) => !isPrerenderedEntry(entry)).length,
      buildS,
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
