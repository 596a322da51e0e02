/** The partner's statistics (docs/API.md#get-statistics): totals, this month's count, the last repair, the implausible readings. */
import { and, count, countDistinct, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Statistics } from '../../../contract';
import type { Database } from '../../db/client';
import { repairs } from '../../db/schema';
import { PORTAL_TIME_ZONE, startOfMonthIn } from '../time-zone';

export async function partnerStatistics(db: Database, partnerId: string, now: Date): Promise<Statistics> {
  const monthStart = startOfMonthIn(PORTAL_TIME_ZONE, now);
  const [row] = await db
    .select({
      repairs_total: count(),
      repairs_this_month: sql<number>`count(*) filter (where ${gte(repairs.recorded_at, monthStart)})`.mapWith(Number),
      vehicles_total: countDistinct(repairs.kode_id),
      // The last standing entry: a superseded one gave way to its correction (docs/API.md#statistics-fields).
      last_repair_at:
        sql<Date | null>`max(${repairs.recorded_at}) filter (where ${isNull(repairs.superseded_by)})`.mapWith(
          repairs.recorded_at,
        ),
      implausible_total:
        sql<number>`count(*) filter (where ${and(eq(repairs.verdict, 'implausible'), isNull(repairs.superseded_by))})`.mapWith(
          Number,
        ),
    })
    .from(repairs)
    .where(eq(repairs.partner_id, partnerId));
  return {
    repairs_total: row?.repairs_total ?? 0,
    repairs_this_month: row?.repairs_this_month ?? 0,
    vehicles_total: row?.vehicles_total ?? 0,
    last_repair_at: row?.last_repair_at ? row.last_repair_at.toISOString() : null,
    implausible_total: row?.implausible_total ?? 0,
  };
}
