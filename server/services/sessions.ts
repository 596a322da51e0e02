/**
 * Refresh sessions (docs/API.md#sessions). A sign-in starts a family; each refresh rotates the token:
 * the presented row is marked rotated and a new row joins the same family. Access tokens name the
 * family (`sid`), so revoking a family signs out every token ever issued in it at once.
 * Only the SHA-256 of a refresh token is stored: a copy of the table cannot be replayed.
 */
import crypto from 'node:crypto';
import { and, asc, desc, eq, gt, isNotNull, isNull, lte, ne, or } from 'drizzle-orm';
import type { Database } from '../db/client';
import { sessions } from '../db/schema';

export const REMEMBER_ME_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * How long after a rotation the rotated token is still honoured. Two tabs of the PWA (or a retry
 * after a response lost on a flaky workshop connection) may present the same token at nearly the
 * same moment; the second must not be mistaken for a stolen token and sign the garage out. Within
 * the window it gets the same successor the first got (successorOf): the family never branches, so
 * two holders of one token stay on one line of tokens, and the next repeat after a window is seen.
 * After it, a repeat is treated as theft and revokes the whole family.
 */
export const ROTATION_GRACE_MS = 10_000;

/**
 * A family's last_used_at and address are written at most once per this interval (per family), so a
 * busy tablet does not cost a write per call: the list shows the last use to the minute.
 */
export const TOUCH_INTERVAL_MS = 60_000;

/**
 * Rows are deleted once expired this long (pruneExpired): until then a tablet signed out from elsewhere
 * is still told so. Past a row's expiry its token is refused anyway; once deleted, as unknown
 * (`session_expired`), whatever the row said.
 */
export const EXPIRED_ROWS_KEPT_MS = 24 * 60 * 60 * 1000;

/** 32 random bytes in base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface IssuedSession {
  /** The refresh token, for the cookie only: never stored, never logged. */
  token: string;
  familyId: string;
  userId: string;
  rememberMe: boolean;
  expiresAt: Date;
}

export type RotationFailure = 'unknown' | 'expired' | 'revoked' | 'reused';
export type RotationResult =
  | { ok: true; session: IssuedSession }
  | { ok: false; reason: RotationFailure; /** The family revoked by this call (a reuse). */ revoked?: string };

/** Where a request comes from, as the list of devices shows it (services/device.ts). */
export interface ClientDevice {
  /** The label read from its User-Agent; '' when nothing could be told. */
  device: string;
  /** Its coarse address, or null. */
  address: string | null;
}

/**
 * A family as the access-token check sees it: live (some row neither revoked nor expired), revoked
 * (ended by a sign-out, a password change or reset, a reuse, or from the list of devices), or gone
 * (expired, or never known). Cached as it is (plugins/session-cache.ts), hence plain data.
 */
export type FamilyState =
  { state: 'live'; userId: string; expiresAt: number } | { state: 'revoked' } | { state: 'gone' };

type SessionRow = typeof sessions.$inferSelect;

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/**
 * Every rotation renews the lifetime: a session dies after 12 hours (30 days with remember_me)
 * without use, while a tablet used every day stays signed in.
 */
function expiryFor(rememberMe: boolean, now: Date): Date {
  return new Date(now.getTime() + (rememberMe ? REMEMBER_ME_TTL_MS : SESSION_TTL_MS));
}

interface SessionInput extends ClientDevice {
  userId: string;
  rememberMe: boolean;
  now: Date;
  /** The token to issue (a rotation's successor); a new random one otherwise. */
  token?: string;
  /** With a rotation: the family, and when it signed in. */
  familyId?: string;
  signedInAt?: Date;
}

/**
 * Deletes the rows no token needs any more: rotated ROTATION_GRACE_MS ago or more (a repeat of such a
 * token is theft however it is told, and its successor tells it: rotateSession), and expired
 * EXPIRED_ROWS_KEPT_MS ago or more. Of one family at each of its rotations, or of one user at a
 * sign-in (which also clears the families of tablets no longer used). A family thus keeps its live row
 * and at most the one rotated within the window, however often it refreshes. Indexed by family and by
 * user.
 */
async function pruneExpired(db: Database, scope: { familyId: string } | { userId: string }, now: Date): Promise<void> {
  const whose = 'familyId' in scope ? eq(sessions.family_id, scope.familyId) : eq(sessions.user_id, scope.userId);
  await db
    .delete(sessions)
    .where(
      and(
        whose,
        or(
          lte(sessions.expires_at, new Date(now.getTime() - EXPIRED_ROWS_KEPT_MS)),
          lte(sessions.rotated_at, new Date(now.getTime() - ROTATION_GRACE_MS)),
        ),
      ),
    );
}

/**
 * Starts a new family (sign-in) or adds a row to an existing one (rotation); either way the rows they
 * make obsolete go (pruneExpired), so the table does not grow with every refresh for ever.
 */
export async function createSession(db: Database, input: SessionInput): Promise<IssuedSession> {
  const token = input.token ?? crypto.randomBytes(32).toString('base64url');
  const familyId = input.familyId ?? crypto.randomUUID();
  const expiresAt = expiryFor(input.rememberMe, input.now);
  await db.insert(sessions).values({
    family_id: familyId,
    user_id: input.userId,
    token_hash: hashToken(token),
    remember_me: input.rememberMe,
    expires_at: expiresAt,
    created_at: input.now,
    device: input.device,
    address: input.address,
    signed_in_at: input.signedInAt ?? input.now,
    // A sign-in and a refresh are both a use of the family.
    last_used_at: input.now,
  });
  await pruneExpired(db, input.familyId ? { familyId } : { userId: input.userId }, input.now);
  return { token, familyId, userId: input.userId, rememberMe: input.rememberMe, expiresAt };
}

async function findByToken(db: Database, token: string): Promise<SessionRow | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.token_hash, hashToken(token)))
    .limit(1);
  return row ?? null;
}

/**
 * The token that succeeds `token` at its rotation: HMAC-SHA256 of it under the successor key
 * (services/keys.ts), in the tokens' own form. The same on every instance and at every repeat, and
 * not computable from the token alone.
 */
export function successorOf(token: string, successorKey: Buffer): string {
  return crypto.createHmac('sha256', successorKey).update(token).digest('base64url');
}

/**
 * Exchanges a refresh token for its successor in the same family, or says why it cannot. `address` is
 * the refreshing client's coarse address: the family's last use, from there.
 */
export function rotateSession(
  db: Database,
  token: string,
  now: Date,
  successorKey: Buffer,
  address: string | null = null,
): Promise<RotationResult> {
  return db.transaction(async (tx) => {
    const row = await findByToken(tx, token);
    const successor = successorOf(token, successorKey);
    if (!row) return repeatOfPruned(tx, successor, now);
    if (row.revoked_at) return { ok: false, reason: 'revoked' };
    if (row.rotated_at) return repeatOfRotated(tx, row, successor, now);
    if (row.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
    // Conditional, so of two refreshes racing with the same token exactly one rotates it.
    const claimed = await tx
      .update(sessions)
      .set({ rotated_at: now })
      .where(and(eq(sessions.id, row.id), isNull(sessions.rotated_at), isNull(sessions.revoked_at)))
      .returning({ id: sessions.id });
    if (claimed.length === 0) return lostRace(tx, row.id, successor, now);
    return { ok: true, session: await createSession(tx, { ...nextIn(row, now, address), token: successor }) };
  });
}

/** Another request rotated the token between our read and our update: it is now a repeat. */
async function lostRace(db: Database, rowId: string, successor: string, now: Date): Promise<RotationResult> {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, rowId)).limit(1);
  if (!row || row.revoked_at) return { ok: false, reason: 'revoked' };
  return repeatOfRotated(db, row, successor, now);
}

/**
 * A token without a row: unknown, or rotated and pruned since (pruneExpired), past its grace window
 * then. Its successor tells which: a successor in the database means the token was rotated, and its
 * repeat is theft, as that of a kept row would be. (A token whose successor's row is gone too is only
 * unknown.)
 */
async function repeatOfPruned(db: Database, successor: string, now: Date): Promise<RotationResult> {
  const next = await findByToken(db, successor);
  if (!next) return { ok: false, reason: 'unknown' };
  if (next.revoked_at) return { ok: false, reason: 'revoked' };
  await revokeFamily(db, next.family_id, now);
  return { ok: false, reason: 'reused', revoked: next.family_id };
}

/**
 * A rotated token presented again: within the grace window, the successor its rotation issued, once
 * more; otherwise, or when its successor is not the one it names (a branch, which only a row made
 * before successors were derived can show), theft.
 */
async function repeatOfRotated(db: Database, row: SessionRow, successor: string, now: Date): Promise<RotationResult> {
  const rotatedAt = row.rotated_at?.getTime() ?? 0;
  if (now.getTime() - rotatedAt <= ROTATION_GRACE_MS) {
    const next = await findByToken(db, successor);
    if (next?.family_id === row.family_id && !next.revoked_at) {
      return {
        ok: true,
        session: {
          token: successor,
          familyId: next.family_id,
          userId: next.user_id,
          rememberMe: next.remember_me,
          expiresAt: next.expires_at,
        },
      };
    }
    if (next?.revoked_at) return { ok: false, reason: 'revoked' };
  }
  await revokeFamily(db, row.family_id, now);
  return { ok: false, reason: 'reused', revoked: row.family_id };
}

/** The family's next row: what the list of devices shows travels with it (see the schema's sessions). */
function nextIn(row: SessionRow, now: Date, address: string | null): SessionInput {
  return {
    userId: row.user_id,
    rememberMe: row.remember_me,
    familyId: row.family_id,
    now,
    device: row.device,
    signedInAt: row.signed_in_at,
    address: address ?? row.address,
  };
}

/**
 * Every revocation answers the families it ended, so the caller can tell the shared cache
 * (app.sessionCache.revoked) once the transaction it ran in has committed.
 */
function familiesOf(rows: readonly { family_id: string }[]): string[] {
  return [...new Set(rows.map((row) => row.family_id))];
}

export async function revokeFamily(db: Database, familyId: string, now: Date): Promise<string[]> {
  const rows = await db
    .update(sessions)
    .set({ revoked_at: now })
    .where(and(eq(sessions.family_id, familyId), isNull(sessions.revoked_at)))
    .returning({ family_id: sessions.family_id });
  return familiesOf(rows);
}

/** Logout: revokes the family of the presented token, whatever its state. */
export async function revokeFamilyOfToken(db: Database, token: string, now: Date): Promise<string[]> {
  const row = await findByToken(db, token);
  return row ? revokeFamily(db, row.family_id, now) : [];
}

/** Revokes every live session family of the user, except one when given. */
export async function revokeSessionsOf(
  db: Database,
  userId: string,
  now: Date,
  exceptFamilyId?: string,
): Promise<string[]> {
  const live = and(eq(sessions.user_id, userId), isNull(sessions.revoked_at));
  const rows = await db
    .update(sessions)
    .set({ revoked_at: now })
    .where(exceptFamilyId ? and(live, ne(sessions.family_id, exceptFamilyId)) : live)
    .returning({ family_id: sessions.family_id });
  return familiesOf(rows);
}

/**
 * Ends one of the user's live families (a device signed out from the list): false when the user has no
 * live family of that id (unknown, another partner's, already ended), which the caller answers as 404.
 */
export async function revokeFamilyOf(db: Database, userId: string, familyId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revoked_at: now })
    .where(and(eq(sessions.family_id, familyId), eq(sessions.user_id, userId), isNull(sessions.revoked_at)))
    .returning({ expires_at: sessions.expires_at });
  return rows.some((row) => row.expires_at.getTime() > now.getTime());
}

/** The family as the access-token check needs it (FamilyState): two indexed look-ups at most. */
/** The family of a refresh token that has a row, for its rate limit (routes/auth/refresh.ts). */
export async function familyOfToken(db: Database, token: string): Promise<string | null> {
  return (await findByToken(db, token))?.family_id ?? null;
}

export async function familyState(db: Database, familyId: string, now: Date): Promise<FamilyState> {
  const [live] = await db
    .select({ userId: sessions.user_id, expiresAt: sessions.expires_at })
    .from(sessions)
    .where(and(eq(sessions.family_id, familyId), isNull(sessions.revoked_at), gt(sessions.expires_at, now)))
    .limit(1);
  if (live) return { state: 'live', userId: live.userId, expiresAt: live.expiresAt.getTime() };
  const [revoked] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.family_id, familyId), isNotNull(sessions.revoked_at)))
    .limit(1);
  return revoked ? { state: 'revoked' } : { state: 'gone' };
}

/**
 * Records a use of the family: its last_used_at and the address it came from, on its newest row(s),
 * only when the last one recorded is TOUCH_INTERVAL_MS old or more. So of many instances touching the
 * same family at once, one writes; the others' statements match no row. Answers the family's last use
 * as it now stands (null for a family with no live row), so the caller knows when to try again.
 */
export async function touchSession(
  db: Database,
  familyId: string,
  now: Date,
  address: string | null,
): Promise<Date | null> {
  const newest = and(eq(sessions.family_id, familyId), isNull(sessions.rotated_at), isNull(sessions.revoked_at));
  const touched = await db
    .update(sessions)
    .set({ last_used_at: now, address })
    .where(and(newest, lte(sessions.last_used_at, new Date(now.getTime() - TOUCH_INTERVAL_MS))))
    .returning({ id: sessions.id });
  if (touched.length > 0) return now;
  const [row] = await db
    .select({ lastUsedAt: sessions.last_used_at })
    .from(sessions)
    .where(newest)
    .orderBy(desc(sessions.last_used_at))
    .limit(1);
  return row?.lastUsedAt ?? null;
}

export interface DeviceSession extends ClientDevice {
  id: string;
  signedInAt: Date;
  lastUsedAt: Date;
}

/**
 * The user's live families, most recently used first: each one's newest row (rotated_at null) holds
 * what the list shows. Two rows of one family can both be unrotated (a sibling issued in the rotation
 * grace window); the newest answers for the family.
 */
export async function listSessions(db: Database, userId: string, now: Date): Promise<DeviceSession[]> {
  const rows = await db
    .selectDistinctOn([sessions.family_id], {
      id: sessions.family_id,
      device: sessions.device,
      address: sessions.address,
      signedInAt: sessions.signed_in_at,
      lastUsedAt: sessions.last_used_at,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.user_id, userId),
        isNull(sessions.rotated_at),
        isNull(sessions.revoked_at),
        gt(sessions.expires_at, now),
      ),
    )
    .orderBy(asc(sessions.family_id), desc(sessions.created_at));
  return rows.sort((a, b) => b.lastUsedAt.getTime() - a.lastUsedAt.getTime() || a.id.localeCompare(b.id));
}
