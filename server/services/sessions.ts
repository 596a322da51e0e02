/**
 * Refresh sessions (docs/API.md#sessions). A sign-in starts a family; each refresh rotates the token:
 * the presented row is marked rotated and a new row joins the same family. Access tokens name the
 * family (`sid`), so revoking a family signs out every token ever issued in it at once.
 * Only the SHA-256 of a refresh token is stored: a copy of the table cannot be replayed.
 */
import crypto from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Database } from '../db/client';
import { sessions } from '../db/schema';

export const REMEMBER_ME_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * How long after a rotation the rotated token is still honoured. Two tabs of the PWA (or a retry
 * after a response lost on a flaky workshop connection) may present the same token at nearly the
 * same moment; the second must not be mistaken for a stolen token and sign the garage out. Within
 * the window it gets a fresh sibling token in the same family; after it, a repeat is treated as
 * theft and revokes the whole family.
 */
export const ROTATION_GRACE_MS = 10_000;

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
export type RotationResult = { ok: true; session: IssuedSession } | { ok: false; reason: RotationFailure };

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

/** Starts a new family (sign-in) or adds a row to an existing one (rotation). */
export async function createSession(
  db: Database,
  input: { userId: string; rememberMe: boolean; now: Date; familyId?: string },
): Promise<IssuedSession> {
  const token = crypto.randomBytes(32).toString('base64url');
  const familyId = input.familyId ?? crypto.randomUUID();
  const expiresAt = expiryFor(input.rememberMe, input.now);
  await db.insert(sessions).values({
    family_id: familyId,
    user_id: input.userId,
    token_hash: hashToken(token),
    remember_me: input.rememberMe,
    expires_at: expiresAt,
    created_at: input.now,
  });
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

/** Exchanges a refresh token for a new one in the same family, or says why it cannot. */
export function rotateSession(db: Database, token: string, now: Date): Promise<RotationResult> {
  return db.transaction(async (tx) => {
    const row = await findByToken(tx, token);
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.revoked_at) return { ok: false, reason: 'revoked' };
    if (row.rotated_at) return repeatOfRotated(tx, row, now);
    if (row.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
    // Conditional, so of two refreshes racing with the same token exactly one rotates it.
    const claimed = await tx
      .update(sessions)
      .set({ rotated_at: now })
      .where(and(eq(sessions.id, row.id), isNull(sessions.rotated_at), isNull(sessions.revoked_at)))
      .returning({ id: sessions.id });
    if (claimed.length === 0) return lostRace(tx, row.id, now);
    return { ok: true, session: await createSession(tx, nextIn(row, now)) };
  });
}

/** Another request rotated the token between our read and our update: it is now a repeat. */
async function lostRace(db: Database, rowId: string, now: Date): Promise<RotationResult> {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, rowId)).limit(1);
  if (!row || row.revoked_at) return { ok: false, reason: 'revoked' };
  return repeatOfRotated(db, row, now);
}

/** A rotated token presented again: a sibling within the grace window, otherwise theft. */
async function repeatOfRotated(db: Database, row: SessionRow, now: Date): Promise<RotationResult> {
  const rotatedAt = row.rotated_at?.getTime() ?? 0;
  if (now.getTime() - rotatedAt <= ROTATION_GRACE_MS) {
    return { ok: true, session: await createSession(db, nextIn(row, now)) };
  }
  await revokeFamily(db, row.family_id, now);
  return { ok: false, reason: 'reused' };
}

function nextIn(row: SessionRow, now: Date) {
  return { userId: row.user_id, rememberMe: row.remember_me, familyId: row.family_id, now };
}

export async function revokeFamily(db: Database, familyId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revoked_at: now })
    .where(and(eq(sessions.family_id, familyId), isNull(sessions.revoked_at)));
}

/** Logout: revokes the family of the presented token, whatever its state. */
export async function revokeFamilyOfToken(db: Database, token: string, now: Date): Promise<void> {
  const row = await findByToken(db, token);
  if (row) await revokeFamily(db, row.family_id, now);
}

/** Revokes every live session family of the user, except one when given. */
export async function revokeSessionsOf(db: Database, userId: string, now: Date, exceptFamilyId?: string) {
  const live = and(eq(sessions.user_id, userId), isNull(sessions.revoked_at));
  await db
    .update(sessions)
    .set({ revoked_at: now })
    .where(exceptFamilyId ? and(live, ne(sessions.family_id, exceptFamilyId)) : live);
}
