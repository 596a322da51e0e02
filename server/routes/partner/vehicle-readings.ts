import type { FastifyPluginAsync, RawServerDefault } from 'fastify';
import { responseSchemas, vehicleParams } from '../../../contract/server';
import { notFound, unauthorized } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { vehicleReadings } from '../../services/repairs';
import { findVehicle } from '../../services/vehicle-lookup';

/** A plugin whose routes get their request types from the contract's zod-mini schemas. */
type ZodRoutes = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodMiniTypeProvider>;

/**
 * GET /vehicles/:kode_id/readings: the vehicle's standing readings from every garage, newest first,
 * with their verdicts and `own`; no garage's identity and no ids (docs/API.md#get-vehicleskode_idreadings).
 */
export const vehicleReadingsRoute: ZodRoutes = async (app) => {
  app.get(
    '/vehicles/:kode_id/readings',
    { schema: { params: vehicleParams, response: responseSchemas('GET partner /vehicles/{kode_id}/readings') } },
    async (request, reply) => {
      if (!request.partner) throw unauthorized();
      const id = request.params.kode_id.toUpperCase();
      if (!(await findVehicle(app.db, id))) throw notFound('vehicle_not_found');
      return success(reply, await vehicleReadings(app.db, id, request.partner.userId));
    },
  );
};
