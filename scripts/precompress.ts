/**
 * A Vite plugin that writes a Brotli (.br) and a gzip (.gz) copy beside every text file of the
 * build, at the strongest settings: compression is paid once at build time instead of on every
 * request, and the server (@fastify/static with preCompressed) sends the variant the browser
 * accepts. On a garage's slow link this is the difference between 700 KB and 200 KB of script.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;
/** Below this, the headers of a compressed response cost more than they save. */
const MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export async function precompressFile(file: string): Promise<void> {
  const content = await fs.readFile(file);
  if (content.byteLength < MIN_BYTES) return;
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.byteLength,
      },
    }),
    gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
}

/** The service worker, written after the bundle by vite-plugin-pwa (its closeBundle, ordered 'post'). */
const WORKER_FILE = 'sw.js';

export function precompress(): Plugin {
  let outDir = '';
  let isServerBuild = false;
  return {
    name: 'garage:precompress',
    apply: 'build',
    // After vite-plugin-pwa's plugins (all 'post'), so its closeBundle below comes after the worker's.
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      isServerBuild = Boolean(config.build.ssr);
    },
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) return;
      const files = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name));
      await Promise.all(files.map((name) => precompressFile(path.join(dir, name))));
    },
    // The worker comes after the bundle, once vite-plugin-pwa has listed the precache in it: this
    // plugin comes after that one, and a sequential hook waits for the earlier ones. Sent
    // compressed, it is a quarter of its size, and every tablet fetches it again with each update.
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler(error) {
        if (error || isServerBuild) return;
        const worker = path.join(outDir, WORKER_FILE);
        if (await fs.stat(worker).catch(() => null)) await precompressFile(worker);
      },
    },
  };
}
