/** The time, read again every minute: enough for "unsent for more than 24 hours" (tests fake the clock). */
import { useEffect, useState } from 'react';

export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
