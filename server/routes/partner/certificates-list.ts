import type { FastifyPluginAsync, RawServerDefault } from 'fastify';
import {
  CERTIFICATES_PAGE_DEFAULT,
  CERTIFICATES_PAGE_MAX,
  normaliseKodeId,
  responseSchemas,
  vehicleParams,
} from '../../../contract/server';
import { listCertificatesQuery } from '../../../contract/certificate-requests';
import { badRequest, notFound, unauthorized } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { partnerCertificates, vehicleCertificates } from '../../services/certificates';
import { findVehicle } from '../../services/vehicle-lookup';

/** A plugin whose routes get their request types from the contract's zod-mini schemas. */
type ZodRoutes = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodMiniTypeProvider>;

/**
 * The caller's certificates, newest first, never another garage's: GET /certificates?limit&before&before_id
 * for the History tab, GET /vehicles/:kode_id/certificates for the vehicle's timeline
 * (docs/API.md#get-certificates).
 */
export const certificatesListRoute: ZodRoutes = async (app) => {
  app.get(
    '/certificates',
    { schema: { querystring: listCertificatesQuery, response: responseSchemas('GET partner /certificates') } },
    async (request, reply) => {
      if (!request.partner) throw unauthorized();
      const { limit = CERTIFICATES_PAGE_DEFAULT, before, before_id: beforeId } = request.query;
      const cursor = before === undefined ? undefined : new Date(before);
      if (cursor && Number.isNaN(cursor.getTime())) throw badRequest('invalid_request', { before: 'invalid_request' });
      const page = { limit, before: cursor, beforeId };
      return success(reply, await partnerCertificates(app.db, request.partner.userId, page, app.clock()));
    },
  );

  app.get(
    '/vehicles/:kode_id/certificates',
    { schema: { params: vehicleParams, response: responseSchemas('GET partner /vehicles/{kode_id}/certificates') } },
    async (request, reply) => {
      if (!request.partner) throw unauthorized();
      const kodeId = normaliseKodeId(request.params.kode_id);
      if (!(await findVehicle(app.db, kodeId))) throw notFound('vehicle_not_found');
      const found = await vehicleCertificates(
        app.db,
        request.partner.userId,
        kodeId,
        CERTIFICATES_PAGE_MAX,
        app.clock(),
      );
      return success(reply, found);
    },
  );
};
