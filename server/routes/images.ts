/**
 * GET /api/images/{file}: pictures (user pictures) from DATA_DIR/images, streamed from disk.
 * Only plain file names with an image extension are served, so no path can leave that folder.
 */
import type { FastifyPluginAsync } from 'fastify';
import fs from 'node:fs/promises';
import path from 'node:path';
import { responseSchemas } from '../../contract';
import type { Config } from '../config';
import { badRequest, notFound } from '../http/errors';

export const IMAGE_FILE_PATTERN = /^[A-Za-z0-9_-]{1,100}\.(png|jpe?g|webp)$/;

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

export const imagesRoutes: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  const dir = path.join(config.dataDir, 'images');
  // A wildcard rather than ":file": the router refuses parameters over 100 characters with a bare
  // 404, while a name may be 100 characters plus its extension; anything with a slash is refused below.
  app.get('/*', { schema: { response: responseSchemas('GET images /{file}') } }, async (request, reply) => {
    const file = (request.params as { '*'?: string })['*'] ?? '';
    const match = IMAGE_FILE_PATTERN.exec(file);
    if (!match) throw badRequest('invalid_request', { file: 'invalid_request' });
    const contentType = CONTENT_TYPES[(match[1] ?? '').toLowerCase()] ?? 'application/octet-stream';
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(path.join(dir, file), 'r');
    } catch {
      throw notFound('not_found');
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw notFound('not_found');
      reply
        .header('content-type', contentType)
        .header('content-length', stat.size)
        .header('last-modified', stat.mtime.toUTCString())
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff');
      // The stream owns the handle from here and closes it when done or aborted.
      return reply.send(handle.createReadStream());
    } catch (error) {
      await handle.close();
      throw error;
    }
  });
};
