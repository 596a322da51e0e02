import type { FastifyPluginAsync, RawServerDefault } from 'fastify';
import { responseSchemas } from '../../../contract/server';
import { unauthorized } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { listSignIns } from '../../services/sign-ins';

type ZodRoutes = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodMiniTypeProvider>;

/**
 * GET /sign-ins: the partner's recent sign-ins, newest first, each with its device and coarse address
 * and whether it was a device not seen before (docs/API.md#get-sign-ins). Opened by the access token.
 */
export const signInsRoute: ZodRoutes = async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.get('/sign-ins', { schema: { response: responseSchemas('GET auth /sign-ins') } }, async (request, reply) => {
    if (!request.partner) throw unauthorized();
    const signIns = await listSignIns(app.db, request.partner.userId);
    return success(
      reply,
      signIns.map((signIn) => ({
        at: signIn.at.toISOString(),
        device: signIn.device,
        address: signIn.address,
        new_device: signIn.newDevice,
      })),
    );
  });
};
