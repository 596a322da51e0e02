/**
 * A Vite plugin that writes the prerendered first screens (docs/ARCHITECTURE.md#prerendered-first-screens):
 * once the PWA is built, it builds src/prerender.tsx for Node, renders each page of
 * `PRERENDERED_PAGES` in every language and colour mode into a copy of the built index.html, and
 * writes them under dist/prerendered/. It runs before the service worker is generated, so the
 * worker precaches them with the rest of the shell.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type PluginOption } from 'vite';
import {
  allShellVariants,
  directionOfLocale,
  prerenderedFile,
  PRERENDERED_PAGES,
  shellVariantName,
  SIGNED_IN_PATHS,
  type ShellVariant,
} from '../contract/shell.ts';
import {
  chunkFile,
  importClosure,
  screenChunkName,
  withModulePreloads,
  type BuiltChunk,
  type ChunkGraph,
} from './module-preloads.ts';
import { precompressFile } from './precompress.ts';

/** What src/prerender.tsx exports. */
interface Renderer {
  renderShell: (pathname: string, variant: ShellVariant) => Promise<string>;
  renderGlobalStyles: () => string;
}

const ROOT_ELEMENT = /<div id="root">[\s\S]*?<\/div>\s*<\/div>\s*(?=<\/body>)/;
const HTML_ELEMENT = /<html[^>]*>/;
const HEAD_START = '<head>';
const HEAD_END = '</head>';
/**
 * The browser paints nothing of the page before #root is parsed to its end (Chromium 124+; others
 * ignore it): the HTML can arrive in pieces, and a paint between two left a half-drawn header whose
 * title then came in beside the logo (a layout shift).
 */
const PAINT_WHOLE_PAGE = '<link rel="expect" href="#root" blocking="render">';
/** The style elements Emotion writes beside the elements they style, on the server. */
const EMOTION_STYLE = /<style data-emotion="[^"]*"[^>]*>[\s\S]*?<\/style>/g;

/**
 * The built index.html with a page's HTML in #root, and the language, direction and colours on <html>.
 * Emotion's styles move to the head, in their order: the body is then a few kilobytes the browser
 * parses in one go, where 70 KB of styles between its elements let it paint a half-parsed header
 * whose buttons then moved (a layout shift). Emotion finds its styles anywhere in the document when
 * the page starts, so hydration is the same.
 */
export function shellDocument(template: string, variant: ShellVariant, body: string): string {
  if (
    !ROOT_ELEMENT.test(template) ||
    !HTML_ELEMENT.test(template) ||
    !template.includes(HEAD_START) ||
    !template.includes(HEAD_END)
  ) {
    throw new Error(
      'index.html has no <html> element, no <head>, no </head> or no #root with its boot screen to replace',
    );
  }
  const { locale, mode } = variant;
  // Marked as Emotion marks the styles it has moved (data-s): its cache would otherwise move each one
  // to the end of the head twice when the page starts, not once (adopting them into its sheet still
  // re-attaches each: docs/ARCHITECTURE.md#start-up).
  const styles = (body.match(EMOTION_STYLE) ?? []).map((style) => style.replace('<style ', '<style data-s="" '));
  const markup = body.replace(EMOTION_STYLE, '');
  const html = `<html lang="${locale}" dir="${directionOfLocale(locale)}" class="${mode}" style="color-scheme: ${mode}">`;
  const root = `<div id="root" data-shell="${shellVariantName(variant)}">${markup}</div>\n  `;
  // Replaced by functions: a `$` in the styles or the text must stay as it is.
  return template
    .replace(HTML_ELEMENT, () => html)
    .replace(HEAD_START, () => `${HEAD_START}${PAINT_WHOLE_PAGE}`)
    .replace(HEAD_END, () => `${styles.join('')}${HEAD_END}`)
    .replace(ROOT_ELEMENT, () => root);
}

/**
 * The built index.html with the design system's global styles in its head, before any style Emotion
 * inserts (the order of the cascade layers must come first). Every page is built from it, the
 * prerendered ones included (src/app/global-styles.ts).
 */
export function withGlobalStyles(template: string, globalStyles: string): string {
  if (!template.includes(HEAD_END)) throw new Error('index.html has no </head> for the global styles');
  return template.replace(HEAD_END, () => `${globalStyles}${HEAD_END}`);
}

/** Builds the server-side entry with the PWA's own transforms (Lingui's macros and catalogs). */
async function buildRenderer(root: string, plugins: PluginOption[], outDir: string): Promise<Renderer> {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    plugins,
    build: {
      ssr: 'src/prerender.tsx',
      outDir,
      emptyOutDir: true,
      rolldownOptions: { output: { entryFileNames: 'prerender.mjs' } },
    },
  });
  return (await import(pathToFileURL(path.join(outDir, 'prerender.mjs')).href)) as Renderer;
}

/** Every stage of the start (src/main.tsx): the last one's entry chunk and all it imports. */
function startFiles(chunks: ChunkGraph): string[] {
  return importClosure(chunks, [chunkFile(chunks, 'shell', { entry: true })]);
}

/** The code of a prerendered page's screen, and of the signed-in frame around it for a signed-in page. */
function screenCodeFiles(chunks: ChunkGraph, pathname: string, page: string): string[] {
  const signedIn = (SIGNED_IN_PATHS as readonly string[]).includes(pathname);
  const roots = [screenChunkName(page), ...(signedIn ? ['AuthenticatedLayout'] : [])];
  return importClosure(
    chunks,
    roots.map((name) => chunkFile(chunks, name)),
  );
}

/** `plugins` are the transforms the app's code needs in Node (React, Lingui), not the PWA's build plugins. */
export function prerenderShells(plugins: () => PluginOption[]): Plugin {
  let root = '';
  let outDir = '';
  let isServerBuild = false;
  const chunks = new Map<string, BuiltChunk>();
  return {
    name: 'garage:prerender-shells',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      isServerBuild = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') chunks.set(output.fileName, output);
      }
    },
    closeBundle: {
      // Before vite-plugin-pwa generates the worker (its closeBundle is ordered 'post' in vite.config.ts).
      order: 'pre',
      sequential: true,
      async handler() {
        if (isServerBuild) return;
        // Under the project's own .tmp, not node_modules/.cache: a worktree or a copy of the tree built
        // by the bench shares node_modules with the checkout, and two builds would overwrite each
        // other's renderer. Node finds the renderer's packages from there (the project's node_modules).
        const { renderShell, renderGlobalStyles } = await buildRenderer(
          root,
          plugins(),
          path.join(root, '.tmp', 'prerender'),
        );
        const indexFile = path.join(outDir, 'index.html');
        const template = withModulePreloads(
          withGlobalStyles(await fs.readFile(indexFile, 'utf8'), renderGlobalStyles()),
          startFiles(chunks),
        );
        await fs.writeFile(indexFile, template);
        await precompressFile(indexFile);
        for (const [pathname, page] of Object.entries(PRERENDERED_PAGES)) {
          const screenFiles = screenCodeFiles(chunks, pathname, page);
          for (const variant of allShellVariants()) {
            const file = path.join(outDir, prerenderedFile(pathname, variant)!);
            const body = await renderShell(pathname, variant);
            await fs.mkdir(path.dirname(file), { recursive: true });
            await fs.writeFile(file, withModulePreloads(shellDocument(template, variant, body), screenFiles));
            await precompressFile(file);
          }
        }
      },
    },
  };
}
