import type { FastifyPluginAsync } from 'fastify';
import { inArray } from 'drizzle-orm';
import { responseSchemas, type Settings } from '../../../contract/server';
import { PARTNER_CONDITIONS, type ConditionsKey } from '../../db/conditions';
import { settings } from '../../db/schema';
import { success } from '../../http/reply';

const KEYS = Object.keys(PARTNER_CONDITIONS) as ConditionsKey[];

/**
 * GET /settings: the partner conditions in French, Arabic and English (HTML; the PWA sanitises it).
 * The texts live in the settings table so an operator can amend them without a release.
 */
export const settingsRoute: FastifyPluginAsync = async (app) => {
  app.get('/settings', { schema: { response: responseSchemas('GET public /settings') } }, async (_request, reply) => {
    const rows = await app.db
      .select({ key: settings.key, value: settings.value })
      .from(settings)
      .where(inArray(settings.key, KEYS));
    const stored = new Map(rows.map((row) => [row.key, row.value]));
    const data: Settings = {
      // The seed always writes the French text; the shipped one stands in if an operator removed it.
      partner_conditions: stored.get('partner_conditions') ?? PARTNER_CONDITIONS.partner_conditions,
      partner_conditions_ar: stored.get('partner_conditions_ar') ?? null,
      partner_conditions_en: stored.get('partner_conditions_en') ?? null,
    };
    return success(reply, data);
  });
};
