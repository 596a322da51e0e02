/**
 * The embedded database (PGlite) is one process at a time: a second process on the same files
 * silently loses what the first one wrote. Whoever opens it (the server, a command) first takes
 * DATA_DIR/portal.lock, a file holding its pid, in the way PostgreSQL uses postmaster.pid:
 *
 * - created with O_EXCL ('wx'), so of two processes starting together exactly one gets it;
 * - a lock whose pid is no longer running (a process killed with SIGKILL, a crash, a reboot) is
 *   stale and taken over: renamed aside first, which only one process can do, then created again;
 * - removed on a clean close, only if it is still ours.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { dataDirError, ensureDirectory } from '../services/data-dir';
import { StartupError } from '../startup-error';

export const LOCK_FILE_NAME = 'portal.lock';

export class DataDirInUseError extends StartupError {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another portal process (pid ${pid}): stop it first, or set DATA_DIR to another directory`,
    );
  }
}

export interface DataDirLock {
  file: string;
  release(): Promise<void>;
}

/** Enough tries for a few processes racing over one stale lock; each round makes progress. */
const MAX_ATTEMPTS = 10;

/** Lock files this process holds: its own pid in one of them does not make it stale. */
const heldHere = new Set<string>();

function isRunning(pid: number): boolean {
  // A lock left by an earlier run can hold our own pid or our parent's (pids restart at the same
  // numbers in a container): neither can be another portal holding this directory.
  if (pid === process.pid || pid === process.ppid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function pidIn(content: string): number | null {
  const pid = Number(content.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

async function readLock(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Creates the lock file holding `content`; false when one exists already. */
async function createLock(file: string, content: string): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
  } catch (error) {
    // Created but not written (a full disk): leave no empty lock behind.
    await fs.rm(file, { force: true });
    throw error;
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Removes a stale lock, unless another process has replaced it meanwhile. The rename is atomic:
 * of several processes that found the same stale lock, one moves it away and the others find
 * nothing to move. If what was moved is not the stale lock that was read (another process took
 * over between the read and the rename), it is put back.
 */
async function removeStaleLock(file: string, stale: string): Promise<void> {
  const aside = `${file}.${process.pid}.stale`;
  try {
    await fs.rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readLock(aside);
  if (moved !== stale) await fs.link(aside, file).catch(() => undefined);
  await fs.rm(aside, { force: true });
}

/**
 * Takes the lock on dataDir (created if missing), or throws DataDirInUseError naming the holder,
 * or a StartupError saying why DATA_DIR cannot be used (it is the first thing written there).
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const file = path.join(dataDir, LOCK_FILE_NAME);
  if (heldHere.has(file)) throw new DataDirInUseError(dataDir, process.pid);
  // The pid tells an operator who holds it; the random line makes this lock's content unique.
  const content = `${process.pid}\n${crypto.randomUUID()}\n`;
  try {
    await ensureDirectory(dataDir);
    await acquire(dataDir, file, content);
  } catch (error) {
    throw dataDirError(dataDir, error);
  }
  heldHere.add(file);
  return { file, release: () => releaseLock(file, content) };
}

async function acquire(dataDir: string, file: string, content: string): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    if (await createLock(file, content)) return;
    const existing = await readLock(file);
    if (existing === null) continue;
    const holder = pidIn(existing);
    if (holder !== null && isRunning(holder)) throw new DataDirInUseError(dataDir, holder);
    await removeStaleLock(file, existing);
  }
  throw new StartupError(`DATA_DIR ${dataDir}: could not take ${LOCK_FILE_NAME}, other processes keep replacing it`);
}

async function releaseLock(file: string, content: string): Promise<void> {
  if ((await readLock(file).catch(() => null)) === content) await fs.rm(file, { force: true });
  heldHere.delete(file);
}
