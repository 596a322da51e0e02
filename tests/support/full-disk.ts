/**
 * Loaded with `node --import` into a server the tests spawn: creating or writing a file under
 * FULL_DISK_DIR fails with ENOSPC, as it does on a full filesystem. A real full filesystem would need
 * a mount (root, and a machine the tests must not reconfigure); this is the only thing simulated.
 * Only the promise API is patched: it is what the server uses for DATA_DIR before anything else.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

const fullDir = path.resolve(process.env.FULL_DISK_DIR ?? '/nonexistent');

function isUnder(file: unknown): file is string {
  return typeof file === 'string' && path.resolve(file).startsWith(fullDir + path.sep);
}

function noSpace(syscall: string, file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall} '${file}'`), {
    code: 'ENOSPC',
    errno: -28,
    syscall,
    path: file,
  });
}

const open = fs.open;
fs.open = (async (file, flags, mode) => {
  if (isUnder(file) && typeof flags === 'string' && /[wa+]/.test(flags)) throw noSpace('open', file);
  return open(file, flags, mode);
}) as typeof fs.open;

const writeFile = fs.writeFile;
fs.writeFile = (async (file, data, options) => {
  if (isUnder(file)) throw noSpace('open', file);
  return writeFile(file, data, options);
}) as typeof fs.writeFile;
