import type { FastifyPluginAsync } from 'fastify';
import { responseSchemas } from '../../../contract/server';
import { partnerStatistics } from '../../services/repairs';
import { success } from '../../http/reply';
import { unauthorized } from '../../http/errors';

/**
 * GET /statistics: the caller's totals. "This month" is the calendar month in Algiers time,
 * counted on recorded_at (when the mechanic pressed Insert), like the history.
 */
export const statisticsRoute: FastifyPluginAsync = async (app) => {
  app.get(
    '/statistics',
    { schema: { response: responseSchemas('GET partner /statistics') } },
    async (request, reply) => {
      if (!request.partner) throw unauthorized();
      return success(reply, await partnerStatistics(app.db, request.partner.userId, app.clock()));
    },
  );
};
