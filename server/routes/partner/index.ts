import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { repairTypesRoute } from './repair-types';

/** /api/partner: every route needs a live access token; each partner sees only their own data. */
export const partnerRoutes: FastifyPluginAsync<{ config: Config }> = async (app) => {
  app.addHook('preHandler', app.authenticate);
  await app.register(repairTypesRoute);
};
