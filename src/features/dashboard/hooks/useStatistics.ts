/**
 * The statistics row's numbers. Fetched when the dashboard opens, when the tablet comes back
 * online and when queued entries reach the server; null while none could be fetched (offline).
 */
import { useEffect, useState } from 'react';
import type { Statistics } from '../../../../contract';
import { useSyncStatus } from '../../../lib/sync/hooks';
import { getStatistics } from '../api/get-statistics';

export function useStatistics(): Statistics | null {
  const { online, waiting } = useSyncStatus();
  const [statistics, setStatistics] = useState<Statistics | null>(null);
  useEffect(() => {
    if (!online) return;
    let cancelled = false;
    void getStatistics().then((result) => {
      if (!cancelled && result.status === 'success') setStatistics(result.data);
    });
    return () => {
      cancelled = true;
    };
  }, [online, waiting]);
  return statistics;
}
