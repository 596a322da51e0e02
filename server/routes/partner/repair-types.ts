import type { FastifyPluginAsync } from 'fastify';
import { asc } from 'drizzle-orm';
import { responseSchemas, type RepairType } from '../../../contract/server';
import { repairTypes } from '../../db/schema';
import { success } from '../../http/reply';

/** GET /repair-types: every type with its French, Arabic and English names, in display order. */
export const repairTypesRoute: FastifyPluginAsync = async (app) => {
  app.get(
    '/repair-types',
    { schema: { response: responseSchemas('GET partner /repair-types') } },
    async (_request, reply) => {
      const rows: RepairType[] = await app.db
        .select({
          id: repairTypes.id,
          name: repairTypes.name,
          name_ar: repairTypes.name_ar,
          name_en: repairTypes.name_en,
        })
        .from(repairTypes)
        .orderBy(asc(repairTypes.sort_order), asc(repairTypes.id));
      return success(reply, rows);
    },
  );
};
