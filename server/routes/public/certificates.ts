import type { FastifyPluginAsync, FastifyRequest, RawServerDefault } from 'fastify';
import { normaliseCertificateId, PUBLIC_CERTIFICATE_LOOKUPS, responseSchemas } from '../../../contract/server';
import { certificateKeySetRecord } from '../../../contract/certificate-keys';
import { certificateParams } from '../../../contract/certificate-requests';
import { notFound } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { certificateKeySet, publicCertificate } from '../../services/certificates';

/** A plugin whose routes get their request types from the contract's zod-mini schemas. */
type ZodRoutes = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodMiniTypeProvider>;

/** How long the key set may be kept: a verifier that meets a `kid` it does not hold asks again. */
const KEY_SET_MAX_AGE_S = 60 * 60;

/**
 * GET /certificates/:id: a certificate, signed, with its status now, for anyone with its link or QR code
 * (docs/API.md#get-certificatesid). Each client address may ask PUBLIC_CERTIFICATE_LOOKUPS.max times a
 * minute, counted first, whatever the id (found, unknown or malformed), so ids cannot be walked.
 * GET /certificate-keys: the keys that check the signatures, as a JSON Web Key Set
 * (docs/API.md#get-certificate-keys).
 */
export const certificatesRoute: ZodRoutes = async (app) => {
  const countLookup = (request: FastifyRequest) =>
    app.enforceLimits([{ key: `certificate-lookup:ip:${request.ip}`, ...PUBLIC_CERTIFICATE_LOOKUPS }]);

  app.get(
    '/certificates/:id',
    {
      schema: { params: certificateParams, response: responseSchemas('GET public /certificates/{id}') },
      onRequest: countLookup,
    },
    async (request, reply) => {
      // The status and the count of newer readings change: never kept by a cache, nor on a shared computer.
      reply.header('cache-control', 'no-store');
      const id = normaliseCertificateId(request.params.id);
      const found = id && (await publicCertificate(app.db, id, app.clock()));
      if (!found) throw notFound('certificate_not_found');
      return success(reply, found);
    },
  );

  app.get(
    '/certificate-keys',
    { schema: { response: responseSchemas('GET public /certificate-keys') } },
    async (_request, reply) => {
      const keySet = certificateKeySetRecord.parse(await certificateKeySet(app.db, app.certificateSigner));
      reply
        .header('cache-control', `public, max-age=${KEY_SET_MAX_AGE_S}`)
        .type('application/jwk-set+json; charset=utf-8');
      return JSON.stringify(keySet);
    },
  );
};
