/**
 * Token keys: from the environment when set (required in production, shared by every instance),
 * otherwise generated once into DATA_DIR/keys.json so a restart keeps sessions valid. The device
 * cookie's key is derived from the access key, so every instance has it without another setting.
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
}

const toPaserk = (raw: string) => `k4.local.${raw}`;
const newRawKey = () => crypto.randomBytes(32).toString('base64url');

function keysFrom(access: string, reset: string): TokenKeys {
  const device = crypto.hkdfSync('sha256', Buffer.from(access, 'base64url'), '', 'portal login device cookie', 32);
  return {
    access: toPaserk(access),
    reset: toPaserk(reset),
    device: toPaserk(Buffer.from(device).toString('base64url')),
  };
}

export async function loadTokenKeys(
  dataDir: string,
  fromEnv: { access: string | null; reset: string | null },
): Promise<TokenKeys> {
  if (fromEnv.access && fromEnv.reset) return keysFrom(fromEnv.access, fromEnv.reset);
  const file = path.join(dataDir, 'keys.json');
  let stored: { access: string; reset: string };
  try {
    stored = JSON.parse(await fs.readFile(file, 'utf8')) as { access: string; reset: string };
  } catch {
    stored = { access: newRawKey(), reset: newRawKey() };
    try {
      await ensureDirectory(dataDir);
      await fs.writeFile(file, JSON.stringify(stored), { mode: 0o600 });
    } catch (error) {
      throw dataDirError(dataDir, error);
    }
  }
  return keysFrom(fromEnv.access ?? stored.access, fromEnv.reset ?? stored.reset);
}
