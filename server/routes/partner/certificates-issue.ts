import type { FastifyPluginAsync, RawServerDefault } from 'fastify';
import { normaliseKodeId, responseSchemas, vehicleParams } from '../../../contract/server';
import { certificateIssueBody } from '../../../contract/certificate-requests';
import { conflict, notFound, unauthorized } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { issueCertificate } from '../../services/certificates';

/** A plugin whose routes get their request types from the contract's zod-mini schemas. */
type ZodRoutes = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodMiniTypeProvider>;

/**
 * POST /vehicles/:kode_id/certificates: a signed mileage certificate of the vehicle, issued by the caller
 * at its owner's request (`owner_consent: true`), 201 (docs/API.md#post-vehicleskode_idcertificates).
 */
export const certificatesIssueRoute: ZodRoutes = async (app) => {
  app.post(
    '/vehicles/:kode_id/certificates',
    {
      schema: {
        params: vehicleParams,
        body: certificateIssueBody,
        response: responseSchemas('POST partner /vehicles/{kode_id}/certificates'),
      },
    },
    async (request, reply) => {
      if (!request.partner) throw unauthorized();
      const outcome = await issueCertificate(app.db, app.certificateSigner, {
        kodeId: normaliseKodeId(request.params.kode_id),
        partnerId: request.partner.userId,
        now: app.clock(),
      });
      switch (outcome.kind) {
        case 'issued':
          return success(reply, outcome.certificate, 201);
        case 'vehicle_not_found':
          throw notFound('vehicle_not_found');
        case 'no_readings':
          throw conflict('certificate_no_readings', 422);
      }
    },
  );
};
