/**
 * The partner's recent sign-ins (docs/API.md#get-sign-ins): when, from which device and network, and
 * whether it was a device not seen before. Never a password, a token or an email.
 */
import { and, desc, eq, notInArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { signIns } from '../db/schema';
import type { ClientDevice } from './sessions';

/**
 * Sign-ins kept per partner, the newest: what the list of devices shows. A tablet signed in with
 * remember_me signs in again about once a month, so this covers months of a garage's devices; a device
 * whose last sign-in has left it counts as new again.
 */
export const SIGN_INS_KEPT = 20;

export interface SignIn extends ClientDevice {
  at: Date;
  newDevice: boolean;
}

/**
 * Records a sign-in and drops those beyond the newest SIGN_INS_KEPT, in one transaction. Whether the
 * device is new: no sign-in kept for the partner has the same device label.
 */
export function recordSignIn(
  db: Database,
  userId: string,
  client: ClientDevice,
  at: Date,
): Promise<{ newDevice: boolean }> {
  return db.transaction(async (tx) => {
    const seen = await tx
      .select({ id: signIns.id })
      .from(signIns)
      .where(and(eq(signIns.user_id, userId), eq(signIns.device, client.device)))
      .limit(1);
    const newDevice = seen.length === 0;
    await tx
      .insert(signIns)
      .values({ user_id: userId, at, device: client.device, address: client.address, new_device: newDevice });
    const kept = tx
      .select({ id: signIns.id })
      .from(signIns)
      .where(eq(signIns.user_id, userId))
      .orderBy(desc(signIns.at), desc(signIns.id))
      .limit(SIGN_INS_KEPT);
    await tx.delete(signIns).where(and(eq(signIns.user_id, userId), notInArray(signIns.id, kept)));
    return { newDevice };
  });
}

/** The partner's kept sign-ins, newest first. */
export async function listSignIns(db: Database, userId: string): Promise<SignIn[]> {
  const rows = await db
    .select()
    .from(signIns)
    .where(eq(signIns.user_id, userId))
    .orderBy(desc(signIns.at), desc(signIns.id))
    .limit(SIGN_INS_KEPT);
  return rows.map((row) => ({ at: row.at, device: row.device, address: row.address, newDevice: row.new_device }));
}
