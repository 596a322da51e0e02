/** The signed-in partner whose data the tablet shows and sends (also when signed in from the cache offline). */
import { getSession, useSession } from './session';

export function currentPartnerId(): string | null {
  const session = getSession();
  return session.status === 'authenticated' ? (session.user?.id ?? null) : null;
}

export function usePartnerId(): string | null {
  const session = useSession();
  return session.status === 'authenticated' ? (session.user?.id ?? null) : null;
}
