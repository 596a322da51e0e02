import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { noStore, varyOn } from '../../http/reply';
import { certificatesIssueRoute } from './certificates-issue';
import { certificatesListRoute } from './certificates-list';
import { certificatesRevokeRoute } from './certificates-revoke';
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
  await app.register(certificatesIssueRoute);
  await app.register(certificatesListRoute);
  await app.register(certificatesRevokeRoute);
};

/**
 * The partner routes that answer 404 rather than 401 to a caller without credentials, and may be cached
 * privately (a photo): outside the hooks above, each route authenticating itself.
 */
export const partnerFileRoutes: FastifyPluginAsync<{ config: Config }> = async (app) => {
  // A refusal (401, 404) is kept by no cache, and says it depends on the credentials, as every other
  // partner answer does; only the photo itself may be kept, privately.
  app.addHook('onSend', async (_request, reply) => {
    if (reply.statusCode >= 400) varyOn(reply.header('cache-control', 'no-store'), 'Authorization');
  });
  await app.register(repairPhotoRoute);
};
