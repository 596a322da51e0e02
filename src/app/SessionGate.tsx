/**
 * The session gate (docs/PRODUCT.md#the-session-gate): before each route it checks the session. An
 * authenticated route without a session goes to /login; a public route with one goes to /.
 * Open routes (the legal text) are readable either way. While the session is not known yet, the page
 * shows as its prerendered HTML did (docs/ARCHITECTURE.md#prerendered-first-screens): a protected page
 * as its frame, with nothing of a partner, since every partner's data is read for the signed-in
 * partner only (src/lib/partner.ts).
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

  if (mustLeave) return <LoadingSpinner />;
  return <>{children}</>;
}
