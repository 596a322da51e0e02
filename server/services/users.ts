/**
 * Partner accounts: loading one as the wire `User`, checking credentials, creating one at
 * registration and applying a profile update. Emails are stored and compared lower-cased and trimmed.
 */
import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { phoneDigits, type Location, type User } from '../../contract';
import type { Database } from '../db/client';
import { partners, passwordResets, users } from '../db/schema';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from './passwords';
import { revokeSessionsOf } from './sessions';

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** PostgreSQL's unique_violation, as PGlite and pg both report it (Drizzle wraps it in `cause`). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if (typeof current !== 'object') return false;
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

const userColumns = {
  id: users.id,
  full_name: users.full_name,
  email: users.email,
  picture: users.picture,
  phone_number: partners.phone_number,
  latitude: partners.latitude,
  longitude: partners.longitude,
  address: partners.address,
};

interface UserRow {
  id: string;
  full_name: string;
  email: string;
  picture: string | null;
  phone_number: string;
  latitude: number;
  longitude: number;
  address: string | null;
}

function toWireUser(row: UserRow): User {
  const { latitude, longitude, address } = row;
  return {
    id: row.id,
    full_name: row.full_name,
    email: row.email,
    picture: row.picture,
    role: 'partner',
    partner: { phone_number: row.phone_number, location: { latitude, longitude, address } },
  };
}

/** The partner as the API shows it; null when there is no such user or they are not a partner. */
export async function loadUser(db: Database, userId: string): Promise<User | null> {
  const [row] = await db
    .select(userColumns)
    .from(users)
    .innerJoin(partners, eq(partners.user_id, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return row ? toWireUser(row) : null;
}

/** Only partners may sign in to this portal: a user without a partner record is treated as unknown. */
async function findPartnerAccount(db: Database, where: SQL) {
  const [row] = await db
    .select({ id: users.id, email: users.email, password_hash: users.password_hash })
    .from(users)
    .innerJoin(partners, eq(partners.user_id, users.id))
    .where(where)
    .limit(1);
  return row ?? null;
}

export function findPartnerByEmail(db: Database, email: string) {
  return findPartnerAccount(db, eq(users.email, normaliseEmail(email)));
}

export function findPartnerById(db: Database, userId: string) {
  return findPartnerAccount(db, eq(users.id, userId));
}

/**
 * The user id when email and password match. An unknown email is checked against a decoy hash,
 * so the answer takes as long either way and timing does not tell whether the account exists.
 */
export async function verifyCredentials(db: Database, email: string, password: string): Promise<string | null> {
  const account = await findPartnerByEmail(db, email);
  if (!account) return verifyAgainstDecoy(password).then(() => null);
  return (await verifyPassword(account.password_hash, password)) ? account.id : null;
}

export interface NewPartner {
  email: string;
  full_name: string;
  password: string;
  phone_number: string;
  location: Location;
  privacy_conditions?: true | undefined;
}

/** Creates the user and their partner record; null when the email is already registered. */
export async function createPartnerAccount(db: Database, input: NewPartner, now: Date): Promise<string | null> {
  const email = normaliseEmail(input.email);
  // Cheap early answer for the common case; the unique index settles the race of two at once.
  if (await emailExists(db, email)) return null;
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ email, full_name: input.full_name, password_hash: passwordHash, password_changed_at: now })
        .returning({ id: users.id });
      if (!user) throw new Error('user insert returned no row');
      await tx.insert(partners).values({
        user_id: user.id,
        phone_number: phoneDigits(input.phone_number),
        ...locationColumns(input.location),
        conditions_accepted_at: input.privacy_conditions === true ? now : null,
      });
      return user.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

async function emailExists(db: Database, email: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return rows.length > 0;
}

function locationColumns(location: Location) {
  return { latitude: location.latitude, longitude: location.longitude, address: location.address ?? null };
}

export interface ProfileChanges {
  full_name?: string | undefined;
  /** Already normalised. */
  email?: string | undefined;
  phone_number?: string | undefined;
  location?: Location | undefined;
  /** A new argon2id hash, when the password changes. */
  password_hash?: string | undefined;
}

export class EmailTakenError extends Error {
  override name = 'EmailTakenError';
}

/**
 * Applies a profile update in one transaction. A new password revokes every other session family
 * of the user (the one making the change stays signed in) unless `signOutOthers` is false, and, like
 * a new email, voids reset links already sent: they were sent to an address or for a password that is
 * no longer current. Answers the families it revoked, for the session cache.
 */
export async function updateProfile(
  db: Database,
  target: { userId: string; sessionFamilyId: string; signOutOthers: boolean },
  changes: ProfileChanges,
  now: Date,
): Promise<string[]> {
  try {
    return await db.transaction(async (tx) => {
      await tx.update(users).set(userChanges(changes, now)).where(eq(users.id, target.userId));
      await tx.update(partners).set(partnerChanges(changes, now)).where(eq(partners.user_id, target.userId));
      const revoked =
        changes.password_hash !== undefined && target.signOutOthers
          ? await revokeSessionsOf(tx, target.userId, now, target.sessionFamilyId)
          : [];
      if (changes.password_hash !== undefined || changes.email !== undefined) {
        await tx
          .update(passwordResets)
          .set({ used_at: now })
          .where(and(eq(passwordResets.user_id, target.userId), isNull(passwordResets.used_at)));
      }
      return revoked;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError('email taken');
    throw error;
  }
}

function userChanges(changes: ProfileChanges, now: Date) {
  return {
    updated_at: now,
    ...(changes.full_name !== undefined && { full_name: changes.full_name }),
    ...(changes.email !== undefined && { email: changes.email }),
    ...(changes.password_hash !== undefined && {
      password_hash: changes.password_hash,
      password_changed_at: now,
      handover_generation: sql`${users.handover_generation} + 1`,
    }),
  };
}

function partnerChanges(changes: ProfileChanges, now: Date) {
  return {
    updated_at: now,
    ...(changes.phone_number !== undefined && { phone_number: phoneDigits(changes.phone_number) }),
    // A new point makes the old address meaningless, so it is replaced (or cleared) with it.
    ...(changes.location !== undefined && locationColumns(changes.location)),
  };
}

/** Records an issued reset link; its id is the token's `jti`, so each link can be used once. */
export async function createPasswordReset(db: Database, userId: string, now: Date, expiresAt: Date): Promise<string> {
  const [row] = await db
    .insert(passwordResets)
    .values({ user_id: userId, created_at: now, expires_at: expiresAt })
    .returning({ id: passwordResets.id });
  if (!row) throw new Error('password reset insert returned no row');
  return row.id;
}

/**
 * Spends a reset link and sets the new password, in one transaction; null when the link is
 * unknown, used, expired or older than the last password change. The conditional UPDATE is what
 * makes a link single use even when two requests present it at once. Every session is revoked:
 * answers the families, for the session cache.
 */
export function resetPassword(
  db: Database,
  reset: { userId: string; resetId: string },
  passwordHash: string,
  now: Date,
): Promise<string[] | null> {
  return db.transaction(async (tx) => {
    const spent = await tx
      .update(passwordResets)
      .set({ used_at: now })
      .where(
        and(
          eq(passwordResets.id, reset.resetId),
          eq(passwordResets.user_id, reset.userId),
          isNull(passwordResets.used_at),
          gt(passwordResets.expires_at, now),
          sql`${passwordResets.created_at} >= (select ${users.password_changed_at} from ${users} where ${users.id} = ${reset.userId})`,
        ),
      )
      .returning({ id: passwordResets.id });
    if (spent.length === 0) return null;
    await tx
      .update(users)
      .set({
        password_hash: passwordHash,
        password_changed_at: now,
        handover_generation: sql`${users.handover_generation} + 1`,
        updated_at: now,
      })
      .where(eq(users.id, reset.userId));
    return revokeSessionsOf(tx, reset.userId, now);
  });
}

/** Which hand-over key the partner's tablets are given now (0 for an unknown id). */
export async function handoverGenerationOf(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ generation: users.handover_generation })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.generation ?? 0;
}
