/**
 * Serves the built PWA from dist/: Brotli or gzip copies made at build time when the browser accepts
 * them, hashed assets cached for a year, the shell and the service worker always revalidated, and
 * index.html for any client route. API paths never fall back. A page prerendered at build time is sent
 * in the language and colour mode its cookies name (docs/ARCHITECTURE.md#prerendered-first-screens).
 */
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import fs from 'node:fs';
import path from 'node:path';
import { sendNotFound } from './envelope';
import { COLOR_MODE_COOKIE, LANGUAGE_COOKIE, PRERENDERED_PAGES, prerenderedFile, shellVariantOf } from '../../contract';

export const staticSitePlugin = fp<{ distDir: string }>(
  async (app, { distDir }) => {
    const hasBuild = fs.existsSync(path.join(distDir, 'index.html'));
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root: distDir,
        wildcard: true,
        index: ['index.html'],
        // The build writes .br and .gz beside each text file (scripts/precompress.ts).
        preCompressed: true,
        setHeaders(res, filePath) {
          const relative = path.relative(distDir, filePath);
          if (relative.startsWith('assets' + path.sep)) {
            res.header('cache-control', 'public, max-age=31536000, immutable');
          } else {
            res.header('cache-control', 'no-cache');
          }
        },
      });
      // The files' wildcard would otherwise take an API path no route matches (an empty segment, a
      // segment too long for a file name) and refuse it as a file (403): an API path is never a file.
      // These routes, as @fastify/static's own, are the PWA's: hidden from the API's OpenAPI document.
      app.all('/api/*', { schema: { hide: true } }, (request, reply) => sendNotFound(request, reply));
      for (const pathname of Object.keys(PRERENDERED_PAGES)) {
        app.get(pathname, { schema: { hide: true } }, (request, reply) => {
          const variant = shellVariantOf(request.cookies[LANGUAGE_COOKIE], request.cookies[COLOR_MODE_COOKIE]);
          const queryAt = request.url.indexOf('?');
          const file = prerenderedFile(pathname, variant, queryAt === -1 ? '' : request.url.slice(queryAt));
          // The same address answers differently by cookie: a shared cache must not mix them up.
          reply.header('vary', 'Cookie').header('cache-control', 'no-cache');
          return reply.sendFile(file && fs.existsSync(path.join(distDir, file)) ? file : 'index.html');
        });
      }
    }
    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0] ?? '';
      const wantsPage =
        (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/') && pathname !== '/api';
      if (hasBuild && wantsPage && !path.extname(pathname)) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return sendNotFound(request, reply);
    });
  },
  { name: 'static-site', dependencies: ['envelope'] },
);
