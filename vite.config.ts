import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react-swc';
import { lingui } from '@lingui/vite-plugin';
import { VitePWA } from 'vite-plugin-pwa';
import { bootIcon } from './scripts/boot-icon.ts';
import { lazyDesignSystemGlobals } from './scripts/lazy-design-system-globals.ts';
import { precompress } from './scripts/precompress.ts';
import { prerenderShells } from './scripts/prerender-shells.ts';
import { signedOutFirstPaint } from './scripts/signed-out-first-paint.ts';

const CHAKRA_DEFINE_HELPERS = [
  'defineConfig',
  'defineRecipe',
  'defineSlotRecipe',
  'defineTokens',
  'defineSemanticTokens',
  'defineKeyframes',
  'defineGlobalStyles',
  'defineTextStyles',
  'defineLayerStyles',
  'defineAnimationStyles',
] as const;

/**
 * The service worker's build asks for one file the way Rolldown names it (`codeSplitting: false`)
 * instead of the deprecated `inlineDynamicImports` vite-plugin-pwa still sets.
 */
function singleFileWorker(): Plugin {
  return {
    name: 'single-file-worker',
    outputOptions(options) {
      const { inlineDynamicImports, ...rest } = options as typeof options & { inlineDynamicImports?: boolean };
      return inlineDynamicImports ? { ...rest, codeSplitting: false } : options;
    },
  };
}

/**
 * The page's entry chunk: index.html's module, src/main.tsx and src/app/screens.ts, the one module that
 * names the screens' chunks. Everything else the first load needs is in the shared shell, which then
 * names no screen's chunk: a change to one screen renames its chunk and this entry, never the shell
 * every lazy chunk imports (docs/decisions/0033-an-update-downloads-what-changed.md).
 */
const ENTRY_MODULES = /(^|[\\/])(index\.html|src[\\/](?:main|start)\.tsx|src[\\/]app[\\/]screens\.ts)$/;

const API_TARGET = process.env.API_TARGET ?? 'http://localhost:8080';

/** The transforms the app's code needs, in the browser build and in the prerender's Node build. */
const appTransforms = () => [react({ plugins: [['@lingui/swc-plugin', {}]] }), lingui()];

export default defineConfig({
  plugins: [
    ...appTransforms(),
    // public/favicon.svg inline in the boot screen of index.html.
    bootIcon(),
    // A signed-out visitor of a signed-in page goes to /login before anything is painted.
    signedOutFirstPaint(),
    // The built pages carry the design system's global styles: the app never computes them.
    lazyDesignSystemGlobals(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'Portail Partenaire Garage',
        short_name: 'Garage',
        description: 'Relevés kilométriques et réparations des véhicules, même hors connexion.',
        lang: 'fr',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#1c4f8c',
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // Shell code and styles; the plugin adds the manifest icons and includeAssets itself. The
        // scanner's ZXing WebAssembly (about 1.1 MB) is left out: only a browser without a
        // BarcodeDetector of its own needs it, and such a tablet fetches it in the background once the
        // worker runs, which keeps it (src/features/dashboard/scan/prefetch.ts), so it scans offline too.
        // The images the code imports (map markers) are inlined by Vite; an image emitted to assets/
        // one day would have to be added here, and the precache test (every file of dist/assets but the
        // WebAssembly precached) says so.
        globPatterns: ['**/*.{js,css,html,woff2}'],
        // The plugin builds the worker as one file with Rollup's inlineDynamicImports, which Rolldown
        // (Vite 8) deprecates with a warning at every build: the same single file, asked for its way.
        buildPlugins: { vite: [singleFileWorker()] },
      },
      devOptions: { enabled: false },
      // The worker is generated after the prerendered pages are written, so it precaches them.
      integration: { closeBundleOrder: 'post' },
    }),
    prerenderShells(appTransforms),
    precompress(),
  ],
  server: {
    proxy: { '/api': API_TARGET },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // Every browser the portal supports (es2022) preloads modules itself: no polyfill in the first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // Chakra's theme module builds its default config (all ~75 recipes) at load time with these
      // identity helpers; marked pure, the recipes the portal does not register are dropped.
      treeshake: { manualPureFunctions: [...CHAKRA_DEFINE_HELPERS] },
      output: {
        // The entry keeps its name from build to build, beside the pages rather than in assets/ (whose
        // files the server marks immutable): it is the one script the pages name, and the precache
        // keeps it under its revision. A change to one screen changes this small file and no page.
        entryFileNames: 'app.js',
        codeSplitting: {
          // Everything the entry imports statically goes in one shared file, the shell: Rolldown would
          // otherwise split the modules the lazy screens share with the entry into many small files (each
          // compressed on its own, each a request) that every first load fetches anyway
          // (docs/ARCHITECTURE.md#start-up). The entry's own modules stay apart (ENTRY_MODULES).
          groups: [{ name: 'shell', tags: ['$initial'], test: (id) => !ENTRY_MODULES.test(id) }],
        },
      },
    },
  },
});
