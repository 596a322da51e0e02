/**
 * What the page must know about the session before anything else, kept in localStorage so that a
 * start reads it at once, without IndexedDB's library: whether a partner is signed in on this tablet
 * (their account, for a start without network) and whether a sign-out is still owed to the server.
 * `/login` then loads no IndexedDB code at all (docs/ARCHITECTURE.md#start-up).
 *
 * IndexedDB keeps the same facts (session-keys.ts) for the service worker, which has no localStorage.
 * A tablet updated from a version without this mirror has none yet: session.ts then reads IndexedDB
 * once and writes it.
 */
import type { User } from '../../contract';
import { SESSION_MIRROR_KEY } from '../../contract/shell';

export interface SessionMirror {
  /** The partner signed in on this tablet, or null when nobody is. */
  account: User | null;
  /** A sign-out the server has not heard yet. */
  pendingSignOut: boolean;
  /** This device's session was ended from another one: /login says so until the next sign-in. */
  signedOutElsewhere?: boolean;
}

function isMirror(value: unknown): value is SessionMirror {
  if (typeof value !== 'object' || value === null) return false;
  const { account, pendingSignOut } = value as Record<string, unknown>;
  const accountOk =
    account === null || (typeof account === 'object' && typeof (account as { id?: unknown }).id === 'string');
  return accountOk && typeof pendingSignOut === 'boolean';
}

/** The mirror, or null when there is none (never written, unreadable, or storage unavailable). */
export function readSessionMirror(): SessionMirror | null {
  try {
    const raw = localStorage.getItem(SESSION_MIRROR_KEY);
    if (raw === null) return null;
    const value: unknown = JSON.parse(raw);
    return isMirror(value) ? value : null;
  } catch {
    return null;
  }
}

/** Updates the mirror; without storage (private mode) the page falls back to IndexedDB each start. */
export function writeSessionMirror(change: Partial<SessionMirror>): void {
  const next = { account: null, pendingSignOut: false, ...readSessionMirror(), ...change };
  try {
    localStorage.setItem(SESSION_MIRROR_KEY, JSON.stringify(next));
  } catch {
    // Storage full or unavailable.
  }
}
