import type { FastifyPluginAsync, RawServerDefault } from 'fastify';
import { normaliseCertificateId, responseSchemas } from '../../../contract/server';
import { certificateParams } from '../../../contract/certificate-requests';
import { notFound, unauthorized } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { revokeCertificate } from '../../services/certificates';

/** A plugin whose routes get their request types from the contract's zod-mini schemas. */
type ZodRoutes = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodMiniTypeProvider>;

/**
 * DELETE /certificates/:id: the caller revokes a certificate it issued; again, the same answer. Another
 * garage's certificate is answered as an unknown one, 404, so none can be found out this way
 * (docs/API.md#delete-certificatesid).
 */
export const certificatesRevokeRoute: ZodRoutes = async (app) => {
  app.delete(
    '/certificates/:id',
    { schema: { params: certificateParams, response: responseSchemas('DELETE partner /certificates/{id}') } },
    async (request, reply) => {
      if (!request.partner) throw unauthorized();
      const id = normaliseCertificateId(request.params.id);
      const revoked = id && (await revokeCertificate(app.db, request.partner.userId, id, app.clock()));
      if (!revoked) throw notFound('certificate_not_found');
      return success(reply, revoked);
    },
  );
};
