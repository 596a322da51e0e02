import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { responseSchemas, type ClientConfig } from '../../../contract/server';
import { success } from '../../http/reply';

/**
 * GET /client-config: the map tile and geocoder providers, read by the PWA at run time so an
 * operator can switch provider (TILE_URL, TILE_ATTRIBUTION, GEOCODER_URL, GEOCODER_KIND) without a release.
 */
export const clientConfigRoute: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  const data: ClientConfig = {
    tile_url: config.tileUrl,
    tile_attribution: config.tileAttribution,
    geocoder_url: config.geocoderUrl,
    geocoder_kind: config.geocoderKind,
  };
  app.get(
    '/client-config',
    { schema: { response: responseSchemas('GET public /client-config') } },
    async (_request, reply) => success(reply, data),
  );
};
