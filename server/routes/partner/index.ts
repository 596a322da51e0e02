import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { noStore } from '../../http/reply';
import { profileRoute } from './profile';
import { repairPhotoRoute, repairPhotoUploadRoute } from './repair-photo';
import { repairTypesRoute } from './repair-types';
import { repairsCreateRoute } from './repairs-create';
import { repairsListRoute } from './repairs-list';
import { statisticsRoute } from './statistics';
import { vehicleLookupRoute } from './vehicle-lookup';
import { vehicleReadingsRoute } from './vehicle-readings';

/** /api/partner: every route needs a live access token; each partner sees only their own data. */
export const partnerRoutes: FastifyPluginAsync<{ config: Config }> = async (app) => {
  // onRequest: a caller without a live session is turned away before its body is even parsed.
  app.addHook('onRequest', app.authenticate);
  app.addHook('onSend', noStore);
  await app.register(repairTypesRoute);
  await app.register(profileRoute);
  await app.register(statisticsRoute);
  await app.register(repairsListRoute);
  await app.register(repairsCreateRoute);
  await app.register(repairPhotoUploadRoute);
  await app.register(vehicleLookupRoute);
  await app.register(vehicleReadingsRoute);
};

/**
 * The partner routes that answer 404 rather than 401 to a caller without credentials, and may be cached
 * privately (a photo): outside the hooks above, each route authenticating itself.
 */
export const partnerFileRoutes: FastifyPluginAsync<{ config: Config }> = async (app) => {
  await app.register(repairPhotoRoute);
};
