import type { FastifyPluginAsync, RawServerDefault } from 'fastify';
import { responseSchemas, vehicleParams } from '../../../contract/server';
import { notFound } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { findVehicle } from '../../services/vehicle-lookup';

/** A plugin whose routes get their request types from the contract's zod-mini schemas. */
type ZodRoutes = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodMiniTypeProvider>;

/**
 * GET /vehicles/:kode_id: the vehicle and its last known reading across every partner
 * (value and date only: which garage recorded it is never shown). Case-insensitive.
 */
export const vehicleLookupRoute: ZodRoutes = async (app) => {
  app.get(
    '/vehicles/:kode_id',
    { schema: { params: vehicleParams, response: responseSchemas('GET partner /vehicles/{kode_id}') } },
    async (request, reply) => {
      const vehicle = await findVehicle(app.db, request.params.kode_id.toUpperCase());
      if (!vehicle) throw notFound('vehicle_not_found');
      return success(reply, vehicle);
    },
  );
};
