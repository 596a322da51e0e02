/**
 * The server as one ES module, for the tests that start it as a process again and again (the
 * portal of each end-to-end file, the start-up, lock and shutdown tests). Started through tsx, as
 * `npm start` does, each start loads tsx and esbuild and transforms the server's files: about 1.9
 * CPU-seconds and over a second on the 2-core CI machine, against about 0.65 CPU-seconds for this
 * bundle (docs/decisions/0024-test-servers-from-a-bundle.md). The e2e global set-up's template portal still starts
 * through tsx, so every run starts the server once the way `npm start` does.
 *
 * Made by the global set-up of the projects that use it (this file's default export), under the
 * project's .tmp/ so that the packages it leaves out resolve from node_modules as they do for
 * server/server.ts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { PROJECT_ROOT } from '../e2e/support/paths';

const ENTRY = path.join(PROJECT_ROOT, 'server', 'server.ts');
const BUNDLE_DIR = path.join(PROJECT_ROOT, '.tmp', 'server-bundle');
const BUNDLE_ENV = 'TEST_SERVER_BUNDLE';

/**
 * The server finds its migrations, seed data and messages beside its own modules
 * (import.meta.url, import.meta.dirname): each module keeps its own file's, not the bundle's.
 */
const keepModulePaths: Plugin = {
  name: 'keep-module-paths',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => ({
      loader: 'ts',
      contents: (await fs.readFile(file, 'utf8'))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(file))),
    }));
  },
};

/** Writes the bundle and returns its path; a name of its own, so a run never reads another's half-written one. */
export async function bundleServer(): Promise<string> {
  await fs.mkdir(BUNDLE_DIR, { recursive: true });
  const outfile = path.join(BUNDLE_DIR, `server-${process.pid}-${crypto.randomBytes(4).toString('hex')}.mjs`);
  await build({
    entryPoints: [ENTRY],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    plugins: [keepModulePaths],
    logLevel: 'warning',
  });
  return outfile;
}

/** The bundle the run's global set-up made, or undefined (then the server starts through tsx). */
export function serverBundle(): string | undefined {
  return process.env[BUNDLE_ENV];
}

/** The node arguments that start the server as `npm start` does, through tsx. */
export function tsxServerCommand(nodeArgs: readonly string[] = []): string[] {
  return ['--import', 'tsx', ...nodeArgs, ENTRY];
}

/** The node arguments that start the server: from the bundle when there is one and no loader is added. */
export function serverCommand(nodeArgs: readonly string[] = []): string[] {
  const bundle = serverBundle();
  return bundle && nodeArgs.length === 0 ? [bundle] : tsxServerCommand(nodeArgs);
}

/** One bundle per run: the first project's set-up makes it, the others (same process) find it. */
export default async function setup(): Promise<() => Promise<void>> {
  const made = serverBundle();
  if (made && (await fs.stat(made).catch(() => null))) return async () => undefined;
  const outfile = await bundleServer();
  // The test files run in worker processes started after this, with this process's environment.
  process.env[BUNDLE_ENV] = outfile;
  return async () => {
    await fs.rm(outfile, { force: true });
  };
}
