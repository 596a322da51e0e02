/**
 * DATA_DIR on disk: creating it, and saying in one line what is wrong with it when it cannot be
 * used (missing and not creatable, read-only, full).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { shortReason, StartupError } from '../startup-error';

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code;

/**
 * Creates dir and its missing parents. Not fs.mkdir's recursive mode: on Linux, Node 20 loops
 * forever when a parent answers ENOENT to new entries although it exists (under /proc).
 */
export async function ensureDirectory(dir: string): Promise<void> {
  try {
    await fs.mkdir(dir);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return;
    const parent = path.dirname(dir);
    if (codeOf(error) !== 'ENOENT' || parent === dir) throw error;
    await ensureDirectory(parent);
    await fs.mkdir(dir).catch((retry: unknown) => {
      if (codeOf(retry) !== 'EEXIST') throw retry;
    });
  }
}

/** DATA_DIR cannot be used: the cause, and what to do about it. */
export function dataDirError(dataDir: string, error: unknown): StartupError {
  if (error instanceof StartupError) return error;
  const full = codeOf(error) === 'ENOSPC' || codeOf(error) === 'EDQUOT';
  const advice = full
    ? 'free some space, or set DATA_DIR to a folder on another disk'
    : 'set DATA_DIR to a folder this user can create and write';
  return new StartupError(`DATA_DIR ${dataDir} cannot be used (${shortReason(error)}): ${advice}`);
}
