/** Launches the API and the built PWA on one origin. Everything else lives in app.ts. */
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { loggableError } from './plugins/envelope';
import { SHUTDOWN_BOUND_MS } from './plugins/graceful-close';
import { StartupError } from './startup-error';

/** A configuration or start-up problem the operator can fix: one line, no stack trace, exit non-zero. */
function exitIfExplained(error: unknown): void {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(2);
  }
  if (error instanceof StartupError) {
    console.error(`Cannot start: ${error.message}`);
    process.exit(1);
  }
}

/**
 * SIGTERM and SIGINT close the app (README.md#stopping-the-server): the graceful-close plugin stops
 * accepting, lets what is in flight finish, answers late arrivals and what is still uploading at its
 * bound with 503, then the database closes; exit 0. An uncaught error closes the same way, exit 1.
 * A close that overruns SHUTDOWN_BOUND_MS (a database that never closes) exits 1; a second signal
 * exits at once. close-with-grace holds these rules, as in fastify/demo's server.ts.
 */
function closeOnSignals(app: FastifyInstance): void {
  closeWithGrace(
    {
      delay: SHUTDOWN_BOUND_MS,
      logger: { error: (message: unknown) => app.log.error(message) },
      onTimeout: (delay) => app.log.error(`shutdown took longer than ${delay / 1000} s, exiting`),
    },
    async ({ signal, err }) => {
      if (err) app.log.error({ err: loggableError(err) }, 'unexpected error: closing');
      else app.log.info({ signal }, 'shutting down: finishing requests in flight');
      await app.close();
    },
  );
}

/** Why listening failed, naming PORT or HOST; other errors as they are. */
function listenError(config: Config, error: unknown): unknown {
  const address = `${config.host}:${config.port}`;
  switch ((error as NodeJS.ErrnoException | null)?.code) {
    case 'EADDRINUSE':
      return new StartupError(
        `PORT ${config.port}: ${address} is already in use; stop what uses it or set PORT to another port`,
      );
    case 'EACCES':
      return new StartupError(
        `PORT ${config.port}: not allowed to listen on ${address} (ports below 1024 need privileges); set PORT to 1024 or above`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new StartupError(`HOST ${config.host} is not an address of this machine; set HOST (0.0.0.0 for all)`);
    default:
      return error;
  }
}

async function start(): Promise<void> {
  const config: Config = loadConfig();
  const app = await buildApp({ config });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // Close what started (the database, the DATA_DIR lock) before saying why.
    await app.close().catch(() => undefined);
    throw listenError(config, error);
  }
  closeOnSignals(app);
  app.log.info(`portal ready at ${config.appUrl} (database: ${app.database.kind})`);
}

start().catch((error: unknown) => {
  exitIfExplained(error);
  // Unexpected: the stack helps whoever fixes it (printed here, Node would add the library's source line).
  console.error(error);
  process.exit(1);
});
