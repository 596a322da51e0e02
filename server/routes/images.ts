/**
 * GET /api/images/{file}: pictures (user pictures) from DATA_DIR/images, streamed from disk.
 * Only plain file names with an image extension are served, so no path can leave that folder.
 */
import type { FastifyPluginAsync, RawServerDefault } from 'fastify';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/mini';
import { responseSchemas } from '../../contract/server';
import type { Config } from '../config';
import { badRequest, notFound } from '../http/errors';
import type { ZodMiniTypeProvider } from '../http/validation';

export const IMAGE_FILE_PATTERN = /^[A-Za-z0-9_-]{1,100}\.(png|jpe?g|webp)$/;

/**
 * The wildcard's value, which Fastify names `*` (the OpenAPI document names it as the contract does,
 * `file`). Its pattern is checked by the route, which reports a wrong name as the field `file`.
 */
const imageParams = z.object({
  '*': z
    .string()
    .check(z.describe('A picture file name: letters, digits, `_` or `-`, then .png, .jpg, .jpeg or .webp.')),
});

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

export const imagesRoutes: FastifyPluginAsync<{ config: Config }, RawServerDefault, ZodMiniTypeProvider> = async (
  app,
  { config },
) => {
  const dir = path.join(config.dataDir, 'images');
  // A wildcard rather than ":file": the router refuses parameters over 100 characters with a bare
  // 404, while a name may be 100 characters plus its extension; anything with a slash is refused below.
  const schema = { params: imageParams, response: responseSchemas('GET images /{file}') };
  app.get('/*', { schema }, async (request, reply) => {
    const file = request.params['*'];
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
