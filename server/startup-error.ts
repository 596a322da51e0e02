/**
 * A reason the server or a command cannot start that the operator can fix. Its message is one line
 * that names the cause and the setting to change; it is printed as is, without a stack trace.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}
