/**
 * The statistics row's numbers: the partner's kept statistics, the entries still waiting on the
 * tablet (pending), and when the numbers were fetched. A fresh fetch is asked when the dashboard
 * opens, when the tablet comes back online and when queued entries reach the server.
 * Undefined until there is something to show (the row keeps its place meanwhile, so the tabs below do
 * not jump); null when there is nothing to show (never fetched, and the server cannot be reached).
 */
import { useEffect, useRef, useState } from 'react';
import { usePartnerId } from '../../../lib/partner';
import { useSyncStatus } from '../../../lib/entries/hooks';
import { refreshStatistics, useCachedStatistics, type CachedStatistics } from '../data/statistics-cache';

/**
 * While the outbox drains, its count changes with every entry stored: the numbers are fetched once it
 * has been still this long, not once per entry (a thousand queued entries made a thousand requests).
 */
export const STATISTICS_SETTLE_MS = 1_000;

export type StatisticsView = CachedStatistics & {
  /** The partner's entries still to be sent from this tablet: not yet in the server's numbers. */
  pending: number;
};

export function useStatistics(): StatisticsView | null | undefined {
  const { online, waiting } = useSyncStatus();
  const partnerId = usePartnerId();
  const cached = useCachedStatistics(partnerId);
  const [failed, setFailed] = useState(false);
  const couldFetch = useRef(false);
  useEffect(() => {
    // On opening, on coming back online and once the partner is known (the page shows its frame until
    // then, with nobody's numbers): at once. After a change in the queue: once it settles.
    const canFetch = online === true && partnerId !== null;
    const immediate = !couldFetch.current;
    couldFetch.current = canFetch;
    if (!canFetch) return;
    let cancelled = false;
    const timer = setTimeout(
      () =>
        void refreshStatistics().then((ok) => {
          if (!cancelled) setFailed(!ok);
        }),
      immediate ? 0 : STATISTICS_SETTLE_MS,
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [online, waiting, partnerId]);
  if (cached === undefined) return undefined;
  if (cached === null) return online && !failed ? undefined : null;
  return { ...cached, pending: waiting };
}
