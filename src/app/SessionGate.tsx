/**
 * The session gate (docs/PRODUCT.md#the-session-gate): before each route it checks the session. An
 * authenticated route without a session goes to /login; a public route with one goes to /.
 * Open routes (the legal text) are readable either way.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { ensureSession, useSession } from '../lib/session';
import { paths } from '../config/paths';
import { LoadingSpinner } from '../components/ui/loading-spinner';

export type RouteArea = 'authenticated' | 'public' | 'open';

export function SessionGate({ area, children }: { area: RouteArea; children: ReactNode }) {
  const [location, navigate] = useLocation();
  const session = useSession();
  const [checkedFor, setCheckedFor] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    void ensureSession().then(() => {
      if (!cancelled) setCheckedFor(location);
    });
    return () => {
      cancelled = true;
    };
  }, [location]);

  const known = session.status !== 'unknown' && checkedFor !== null;
  const mustLeave =
    known &&
    ((area === 'authenticated' && session.status !== 'authenticated') ||
      (area === 'public' && session.status === 'authenticated'));

  useEffect(() => {
    if (!mustLeave) return;
    navigate(area === 'authenticated' ? paths.login : paths.dashboard, { replace: true });
  }, [mustLeave, area, navigate]);

  // A public or open page shows at once, as its prerendered HTML did (docs/ARCHITECTURE.md#prerendered-first-screens);
  // a signed-in partner who lands on one is sent to / once the session is known. A protected page
  // waits for the session: nothing of a partner is rendered before it is known.
  if (mustLeave || (!known && area === 'authenticated')) return <LoadingSpinner />;
  return <>{children}</>;
}
