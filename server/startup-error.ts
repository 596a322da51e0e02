/**
 * A reason the server or a command cannot start that the operator can fix. Its message is one line
 * that names the cause and the setting to change; it is printed as is, without a stack trace.
 */
export class StartupError extends Error {
  override name = 'StartupError';

  constructor(message: string) {
    // Messages quote other errors', which may run over several lines: keep one.
    super(message.replace(/\s*\n\s*/g, ' '));
  }
}

/** The first line of whatever was thrown, for quoting in a StartupError. */
export function shortReason(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  // Emscripten's file system errors (PGlite) are not Error objects: they carry an errno.
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === 'number' ? `file system error ${errno}` : String(error);
}
