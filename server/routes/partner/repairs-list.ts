import type { FastifyPluginAsync, RawServerDefault } from 'fastify';
import { listRepairsQuery, REPAIRS_PAGE_DEFAULT, responseSchemas } from '../../../contract/server';
import { badRequest, unauthorized } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { listRepairs } from '../../services/repairs';

/** A plugin whose routes get their request types from the contract's zod-mini schemas. */
type ZodRoutes = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodMiniTypeProvider>;

/**
 * GET /repairs?limit&before&before_id: the caller's repairs, newest first by recorded_at (then id).
 * `before` and `before_id` are an exclusive cursor: the recorded_at and id of the last item
 * (docs/API.md#get-repairs).
 */
export const repairsListRoute: ZodRoutes = async (app) => {
  app.get(
    '/repairs',
    { schema: { querystring: listRepairsQuery, response: responseSchemas('GET partner /repairs') } },
    async (request, reply) => {
      if (!request.partner) throw unauthorized();
      const { limit = REPAIRS_PAGE_DEFAULT, before, before_id: beforeId } = request.query;
      const cursor = before === undefined ? undefined : new Date(before);
      if (cursor && Number.isNaN(cursor.getTime())) throw badRequest('invalid_request', { before: 'invalid_request' });
      return success(reply, await listRepairs(app.db, request.partner.userId, { limit, before: cursor, beforeId }));
    },
  );
};
