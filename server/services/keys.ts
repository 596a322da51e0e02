/**
 * Token keys: from the environment when set (required in production, shared by every instance),
 * otherwise generated once into DATA_DIR/keys.json so a restart keeps sessions valid.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { dataDirError, ensureDirectory } from './data-dir';

export interface TokenKeys {
  /** PASERK k4.local keys. */
  access: string;
  reset: string;
}

const toPaserk = (raw: string) => `k4.local.${raw}`;
const newRawKey = () => crypto.randomBytes(32).toString('base64url');

export async function loadTokenKeys(
  dataDir: string,
  fromEnv: { access: string | null; reset: string | null },
): Promise<TokenKeys> {
  if (fromEnv.access && fromEnv.reset) return { access: toPaserk(fromEnv.access), reset: toPaserk(fromEnv.reset) };
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
  return {
    access: toPaserk(fromEnv.access ?? stored.access),
    reset: toPaserk(fromEnv.reset ?? stored.reset),
  };
}
