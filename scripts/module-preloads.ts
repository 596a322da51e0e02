/**
 * `<link rel="modulepreload">` for the code a page runs first (docs/ARCHITECTURE.md#start-up): the
 * app's start (src/boot.tsx), which the page's small entry imports only once the HTML is painted, and
 * on a prerendered page the screen it shows. Announced in the HTML, the browser fetches and compiles
 * them alongside the entry instead of one after the other.
 */
import path from 'node:path';
import type { Plugin } from 'vite';

/** What the preloads need to know of a built chunk (Rolldown's OutputChunk has these). */
export interface BuiltChunk {
  type: 'chunk';
  fileName: string;
  imports: string[];
  moduleIds: string[];
}

export type BuiltBundle = Record<string, BuiltChunk | { type: 'asset' }>;

/**
 * The files of the chunks that hold `modules` (absolute ids) and of every chunk they import
 * statically, in load order (dependencies first). Throws for a module no chunk holds: a renamed
 * screen must not silently lose its preload.
 */
export function chunkFilesOf(bundle: BuiltBundle, modules: readonly string[]): string[] {
  const chunks = Object.values(bundle).filter((output): output is BuiltChunk => output.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const files: string[] = [];
  const visit = (chunk: BuiltChunk) => {
    if (files.includes(chunk.fileName)) return;
    for (const imported of chunk.imports) visit(byFile.get(imported)!);
    if (!files.includes(chunk.fileName)) files.push(chunk.fileName);
  };
  for (const module of modules) {
    const holder = chunks.find((chunk) => chunk.moduleIds.includes(module));
    if (!holder) throw new Error(`no chunk holds ${module}`);
    visit(holder);
  }
  return files;
}

export function modulePreloadLinks(files: readonly string[], base = '/'): string {
  return files.map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`).join('');
}

/**
 * The page's entry script and the preloads already after it, after which new preloads go: before the
 * prerendered page's styles, so that the browser's preload scanner meets them first.
 */
const ENTRY_SCRIPT = /<script type="module"[^>]*><\/script>(?:<link rel="modulepreload"[^>]*>)*/;

/** `html` with these preloads after its entry script and its earlier preloads. */
export function withModulePreloads(html: string, files: readonly string[], base = '/'): string {
  if (!ENTRY_SCRIPT.test(html)) throw new Error('the page has no module script to put the preloads after');
  return html.replace(ENTRY_SCRIPT, (script) => `${script}${modulePreloadLinks(files, base)}`);
}

/** The files index.html already loads or preloads: its scripts and module preloads. */
export function filesInHtml(html: string, base = '/'): Set<string> {
  const files = new Set<string>();
  for (const [, href] of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+\.js)"/g)) {
    if (href!.startsWith(base)) files.add(href!.slice(base.length));
  }
  return files;
}

/** A module of the project (`src/boot.tsx`) or the module of a package the bundle holds (`workbox-window`). */
function moduleIdOf(bundle: BuiltBundle, root: string, module: string): string {
  if (module.startsWith('.') || module.startsWith('src/')) return path.resolve(root, module);
  const inPackage = `/node_modules/${module}/`;
  for (const output of Object.values(bundle)) {
    const id =
      output.type === 'chunk' ? output.moduleIds.find((candidate) => candidate.includes(inPackage)) : undefined;
    if (id) return id;
  }
  throw new Error(`no chunk holds the package ${module}`);
}

/**
 * Adds to index.html the module preloads of `modules` (project paths or package names) and of what
 * they import: what every page runs at its start although its entry imports it later.
 */
export function preloadInIndexHtml(modules: readonly string[]): Plugin {
  let root = '';
  let base = '/';
  return {
    name: 'garage:module-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const present = filesInHtml(html, base);
        const ids = modules.map((module) => moduleIdOf(bundle, root, module));
        const files = chunkFilesOf(bundle, ids).filter((file) => !present.has(file));
        return withModulePreloads(html, files, base);
      },
    },
  };
}
