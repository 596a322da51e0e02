/** Launches the API and the built PWA on one origin. Everything else lives in app.ts. */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
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

function handleSignals(app: FastifyInstance): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    // In-flight requests finish; the database plugin then closes the database cleanly.
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s, exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    // Connections that go idle after close() began would otherwise be held for the keep-alive
    // timeout (72 s): close each one as soon as its last response is out.
    const sweeper = setInterval(() => app.server.closeIdleConnections(), 100);
    await app.close();
    clearInterval(sweeper);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
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
  handleSignals(app);
  app.log.info(`portal ready at ${config.appUrl} (database: ${app.database.kind})`);
}

start().catch((error: unknown) => {
  exitIfExplained(error);
  // Unexpected: the stack helps whoever fixes it (printed here, Node would add the library's source line).
  console.error(error);
  process.exit(1);
});
