import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { certificatesRoute } from './certificates';
import { clientConfigRoute } from './client-config';
import { settingsRoute } from './settings';

/** /api/public: no sign-in needed; the certificates' lookups are rate limited per client address. */
export const publicRoutes: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  await app.register(settingsRoute);
  await app.register(clientConfigRoute, { config });
  await app.register(certificatesRoute);
};
