/**
 * Whether an error says the database cannot be reached at all (docs/API.md#error-types), rather than that
 * one statement failed: the server, or its connection, is gone, stopping, full or not there. Such a
 * call is answered 503 `unavailable` with Retry-After, as the ready probe says, not 500 `internal`:
 * nothing is wrong with the call, and the same call will work once the database is back.
 */

/** SQLSTATE classes and codes of a database that is not there to answer. */
const UNAVAILABLE_STATES = [
  /^08/, // connection exception
  /^57P0[1-4]$/, // admin shutdown, crash shutdown, cannot connect now, database dropped
  /^53300$/, // too many connections
  /^3D000$/, // the database named in DATABASE_URL does not exist (dropped while running)
];

/** The system's and the drivers' words for a connection that failed or was closed. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i, // node-postgres: the server closed the connection
  /timeout exceeded when trying to connect/i, // node-postgres: the pool found no connection in time
  /cannot use a pool after calling end/i,
  /not queryable/i, // node-postgres: a client whose connection failed
  /pglite is closed/i, // the embedded database was closed under the call
];

/** The error and the causes it wraps (drizzle wraps the driver's error in DrizzleQueryError). */
function* chainOf(error: unknown): Generator<unknown> {
  for (let depth = 0; error && depth < 5; depth++) {
    yield error;
    error = (error as { cause?: unknown }).cause;
  }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const link of chainOf(error)) {
    const { code, message } = link as { code?: unknown; message?: unknown };
    if (
      typeof code === 'string' &&
      (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_STATES.some((state) => state.test(code)))
    ) {
      return true;
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}
