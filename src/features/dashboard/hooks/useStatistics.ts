/**
 * The statistics row's numbers. Fetched when the dashboard opens, when the tablet comes back
 * online and when queued entries reach the server. Undefined until the first answer (the row keeps
 * its place meanwhile, so the tabs below do not jump); null when none could be fetched (offline).
 */
import { useEffect, useRef, useState } from 'react';
import type { Statistics } from '../../../../contract';
import { useSyncStatus } from '../../../lib/sync/hooks';
import { getStatistics } from '../api/get-statistics';

/**
 * While the outbox drains, its count changes with every entry stored: the numbers are fetched once it
 * has been still this long, not once per entry (a thousand queued entries made a thousand requests).
 */
export const STATISTICS_SETTLE_MS = 1_000;

export function useStatistics(): Statistics | null | undefined {
  const { online, waiting } = useSyncStatus();
  const [statistics, setStatistics] = useState<Statistics | null | undefined>(undefined);
  const wasOnline = useRef(false);
  useEffect(() => {
    // On opening and on coming back online: at once. After a change in the queue: once it settles.
    const immediate = !wasOnline.current;
    wasOnline.current = online;
    if (!online) return;
    let cancelled = false;
    const timer = setTimeout(
      () =>
        void getStatistics().then((result) => {
          if (cancelled) return;
          // A failed refresh keeps numbers already shown; with none, the row hides.
          setStatistics((current) => (result.status === 'success' ? result.data : (current ?? null)));
        }),
      immediate ? 0 : STATISTICS_SETTLE_MS,
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [online, waiting]);
  return statistics === undefined && !online ? null : statistics;
}
