/**
 * Token keys: from the environment when set (required in production, shared by every instance),
 * otherwise generated once into DATA_DIR/keys.json so a restart keeps sessions valid. The device
 * cookie's key and the refresh tokens' successor key are derived from the access key, so every
 * instance has them without another setting.
 * The hand-over secret (HANDOVER_KEY) is kept the same way: each partner's hand-over key is derived
 * from it (handoverKeyFor), so every instance hands a partner's tablets the same key
 * (docs/ARCHITECTURE.md#the-hand-over-file). So is the seed of the key that signs mileage certificates
 * (CERTIFICATE_KEY, docs/API.md#mileage-certificates).
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
  /** The seed of the Ed25519 key that signs mileage certificates, 32 bytes in base64url (services/certificates). */
  certificate: string;
  /**
   * Names the token that succeeds a refresh token at its rotation (services/sessions.ts): derived
   * from the access key, so every instance names the same successor.
   */
  successor: Buffer;
}

/** The raw keys as ACCESS_TOKEN_KEY and the other variables give them, and as keys.json keeps them. */
const RAW_KEY_NAMES = ['access', 'reset', 'handover', 'certificate'] as const;
type KeyName = (typeof RAW_KEY_NAMES)[number];
type RawKeys = Record<KeyName, string>;
type KeysFromEnv = Record<KeyName, string | null>;

const toPaserk = (raw: string) => `k4.local.${raw}`;
/** 32 random bytes: a PASERK key, the hand-over secret, or an Ed25519 seed (any 32 bytes are one). */
const newRawKey = () => crypto.randomBytes(32).toString('base64url');

function keysFrom({ access, reset, handover, certificate }: RawKeys): TokenKeys {
  const derived = (info: string) =>
    Buffer.from(crypto.hkdfSync('sha256', Buffer.from(access, 'base64url'), '', info, 32));
  return {
    access: toPaserk(access),
    reset: toPaserk(reset),
    device: toPaserk(derived('portal login device cookie').toString('base64url')),
    handover,
    certificate,
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

async function readKeysFile(file: string): Promise<Partial<RawKeys> | null> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as Partial<RawKeys>;
  } catch {
    return null;
  }
}

const eachKey = (value: (name: KeyName) => string) =>
  Object.fromEntries(RAW_KEY_NAMES.map((name) => [name, value(name)])) as RawKeys;

/** Every key, when the environment sets them all: keys.json is then neither read nor written. */
function everyKeySet(fromEnv: KeysFromEnv): RawKeys | null {
  return RAW_KEY_NAMES.every((name) => fromEnv[name]) ? (fromEnv as RawKeys) : null;
}

export async function loadTokenKeys(dataDir: string, fromEnv: KeysFromEnv): Promise<TokenKeys> {
  const configured = everyKeySet(fromEnv);
  if (configured) return keysFrom(configured);
  const file = path.join(dataDir, 'keys.json');
  const stored = await readKeysFile(file);
  // A keys.json written before a key existed (the hand-over secret, the certificate key) keeps the keys
  // it has and gains the missing one.
  const complete = eachKey((name) => stored?.[name] ?? newRawKey());
  if (RAW_KEY_NAMES.some((name) => !stored?.[name])) await writeKeysFile(dataDir, file, complete);
  return keysFrom(eachKey((name) => fromEnv[name] ?? complete[name]));
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
