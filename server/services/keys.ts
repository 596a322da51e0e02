/**
 * Token keys: from the environment when set (required in production, shared by every instance),
 * otherwise generated once into DATA_DIR/keys.json so a restart keeps sessions valid. The device
 * cookie's key and the refresh tokens' successor key are derived from the access key, so every
 * instance has them without another setting.
 * The hand-over secret (HANDOVER_KEY) is kept the same way: each partner's hand-over key is derived
 * from it (handoverKeyFor), so every instance hands a partner's tablets the same key
 * (docs/ARCHITECTURE.md#the-hand-over-file).
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { dataDirError, ensureDirectory } from './data-dir';

export interface TokenKeys {
  /** PASERK k4.local keys. */
  access: string;
  reset: string;
  device: string;
  /** The hand-over secret: 32 bytes in base64url, never sent; partners get keys derived from it. */
  handover: string;
  /**
   * Names the token that succeeds a refresh token at its rotation (services/sessions.ts): derived
   * from the access key, so every instance names the same successor.
   */
  successor: Buffer;
}

/** The raw keys as HANDOVER_KEY and the other variables give them, and as keys.json keeps them. */
interface RawKeys {
  access: string;
  reset: string;
  handover: string;
}

const toPaserk = (raw: string) => `k4.local.${raw}`;
const newRawKey = () => crypto.randomBytes(32).toString('base64url');

function keysFrom({ access, reset, handover }: RawKeys): TokenKeys {
  const derived = (info: string) =>
    Buffer.from(crypto.hkdfSync('sha256', Buffer.from(access, 'base64url'), '', info, 32));
  return {
    access: toPaserk(access),
    reset: toPaserk(reset),
    device: toPaserk(derived('portal login device cookie').toString('base64url')),
    handover,
    successor: derived('portal refresh token successor'),
  };
}

async function writeKeysFile(dataDir: string, file: string, keys: RawKeys): Promise<void> {
  try {
    await ensureDirectory(dataDir);
    await fs.writeFile(file, JSON.stringify(keys), { mode: 0o600 });
  } catch (error) {
    throw dataDirError(dataDir, error);
  }
}

export async function loadTokenKeys(
  dataDir: string,
  fromEnv: { access: string | null; reset: string | null; handover: string | null },
): Promise<TokenKeys> {
  if (fromEnv.access && fromEnv.reset && fromEnv.handover) {
    return keysFrom({ access: fromEnv.access, reset: fromEnv.reset, handover: fromEnv.handover });
  }
  const file = path.join(dataDir, 'keys.json');
  let stored: Partial<RawKeys> | null = null;
  try {
    stored = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<RawKeys>;
  } catch {
    stored = null;
  }
  // A keys.json written before the hand-over secret existed keeps its token keys and gains one.
  const complete: RawKeys = {
    access: stored?.access ?? newRawKey(),
    reset: stored?.reset ?? newRawKey(),
    handover: stored?.handover ?? newRawKey(),
  };
  if (!stored?.access || !stored.reset || !stored.handover) await writeKeysFile(dataDir, file, complete);
  return keysFrom({
    access: fromEnv.access ?? complete.access,
    reset: fromEnv.reset ?? complete.reset,
    handover: fromEnv.handover ?? complete.handover,
  });
}

/**
 * A partner's hand-over key: HMAC-SHA256 of their id and key generation under the hand-over secret,
 * base64url. The same on every tablet and instance for one partner, another for each partner and for
 * each generation (a password change or reset advances it), and not computable without the secret, so
 * a file sealed with it was sealed by a tablet the partner signed in on since their password last
 * changed. Generation 0 names the id alone, as the keys made before generations existed did.
 */
export function handoverKeyFor(secret: string, partnerId: string, generation = 0): string {
  const named = generation === 0 ? partnerId : `${partnerId}:${generation}`;
  return crypto.createHmac('sha256', Buffer.from(secret, 'base64url')).update(named).digest('base64url');
}
