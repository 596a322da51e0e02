/**
 * The real portal (API + built PWA on one origin) as a child process, one per test file: fresh
 * embedded PGlite in a temporary DATA_DIR, demo data seeded, mail written to files, map services
 * pointed at the local stubs.
 *
 * A fresh DATA_DIR is a copy of a template the e2e global set-up makes once per run (see
 * preparePortalTemplate): creating the database, migrating and seeding it took several seconds of
 * every file's start. The portal still migrates and seeds at its start (a no-op on the copy), and
 * each file still gets a database nobody else wrote to.
 *
 * The portals of the test files start from the run's server bundle (tests/support/server-bundle.ts),
 * the template's through tsx as `npm start` does; a portal whose DATA_DIR is thrown away is stopped
 * with SIGKILL (stopChild).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { serverCommand, tsxServerCommand } from '../../support/server-bundle';
import { resetLinkIn } from './mail';
import { DIST_DIR, PROJECT_ROOT } from './paths';

export const DEMO_PARTNER = { email: 'garage@demo.dz', password: 'demo-garage-2026' } as const;

export interface PortalOptions {
  /** Leaflet URL template, normally MapStubs.tileUrl. */
  tileUrl: string;
  /** Normally MapStubs.geocoderUrl (photon) or MapStubs.nominatimUrl with geocoderKind 'nominatim'. */
  geocoderUrl: string;
  geocoderKind?: 'photon' | 'nominatim';
  /** Extra environment for the server, applied last. */
  env?: Record<string, string>;
}

export interface Portal {
  /** http://127.0.0.1:<port>, also the server's APP_URL. */
  url: string;
  dataDir: string;
  /** The server's process id (the benchmarks read its memory). */
  pid: number;
  /** Server output so far (it runs with LOG_LEVEL=warn), for failure messages. */
  output(): string;
  /** Raw .eml files under DATA_DIR/mail, oldest first. */
  readMails(): Promise<string[]>;
  /**
   * The reset link in the newest mail. Mail may be written just after the HTTP answer, so this waits
   * until at least `minMails` mails exist (pass the count before the request to skip older ones).
   */
  latestResetLink(options?: { minMails?: number; timeoutMs?: number }): Promise<string>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const BUILD_TIMEOUT_MS = 180_000;
const LOCK_FILE = path.join(PROJECT_ROOT, '.tmp', 'e2e-build.lock');
const OUTPUT_LIMIT = 64 * 1024;

/** Set by the e2e global set-up (tests/e2e/support/global-setup.ts) to the template DATA_DIR. */
export const PORTAL_TEMPLATE_ENV = 'E2E_PORTAL_TEMPLATE_DIR';

/**
 * Settings that change what the database holds at start (demo data, another database): a portal
 * given one of them starts from an empty DATA_DIR, as it would without the template.
 */
const SEED_SETTINGS = ['DATABASE_URL', 'DEMO', 'NODE_ENV'];

/** The portal's own settings: never inherited from the shell running the tests. */
const PORTAL_ENV = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'APP_URL',
  'ALLOWED_ORIGINS',
  'SMTP_URL',
  'REDIS_URL',
  'NODE_ENV',
  'DEMO',
  'ACCESS_TOKEN_KEY',
  'RESET_TOKEN_KEY',
  'HANDOVER_KEY',
  'CERTIFICATE_KEY',
  'TRUST_PROXY',
  'MIGRATE_ON_START',
  'LOG_LEVEL',
  'TILE_URL',
  'TILE_ATTRIBUTION',
  'GEOCODER_URL',
  'GEOCODER_KIND',
  'DIST_DIR',
];

/** Children still running, killed if the test process exits without stopping them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function hasBuild(): boolean {
  return fs.existsSync(path.join(DIST_DIR, 'index.html'));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Takes the build lock, or returns false while another live process holds it (stale locks are removed). */
async function tryLock(): Promise<boolean> {
  await fsp.mkdir(path.dirname(LOCK_FILE), { recursive: true });
  try {
    await fsp.writeFile(LOCK_FILE, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number(await fsp.readFile(LOCK_FILE, 'utf8').catch(() => ''));
    if (holder > 0 && isAlive(holder)) return false;
    await fsp.rm(LOCK_FILE, { force: true });
    return tryLock();
  }
}

function runViteBuild(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(PROJECT_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', DIST_DIR],
      {
        cwd: PROJECT_ROOT,
        // Under vitest NODE_ENV is 'test', and Vite would then bundle React's development build.
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build failed (${code}):\n${output}`))));
  });
}

let building: Promise<void> | null = null;

/**
 * The portal serves dist/; without it every page is a 404. Builds once when missing; the lock keeps
 * two processes (two vitest runs) from building into the same folder at once. An existing dist/
 * is used as is: run `npx vite build` after changing src/.
 */
export function ensureBuild(): Promise<void> {
  building ??= (async () => {
    const deadline = Date.now() + BUILD_TIMEOUT_MS;
    while (!hasBuild()) {
      if (await tryLock()) {
        try {
          if (!hasBuild()) await runViteBuild();
        } finally {
          await fsp.rm(LOCK_FILE, { force: true });
        }
        return;
      }
      if (Date.now() > deadline) throw new Error(`waited ${BUILD_TIMEOUT_MS} ms for another process's vite build`);
      await sleep(500);
    }
  })();
  return building;
}

function portalEnv(port: number, dataDir: string, options: PortalOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of PORTAL_ENV) delete env[name];
  return {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DIST_DIR,
    // development, not test: demo mode seeds the demo partner and the 60 demo vehicles.
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    APP_URL: `http://127.0.0.1:${port}`,
    TILE_URL: options.tileUrl,
    GEOCODER_URL: options.geocoderUrl,
    GEOCODER_KIND: options.geocoderKind ?? 'photon',
    ...options.env,
  };
}

/** How the portal starts: as `npm start` does (through tsx), or from the run's bundle (quicker). */
type Runner = 'tsx' | 'bundle';

function spawnServer(env: NodeJS.ProcessEnv, runner: Runner, onOutput: (text: string) => void): ChildProcess {
  const command = runner === 'bundle' ? serverCommand() : tsxServerCommand();
  const child = spawn(process.execPath, command, {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => onOutput(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => onOutput(chunk.toString()));
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Any HTTP answer means the server listens (the database is migrated and seeded before listen). */
async function waitUntilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`portal exited during start (${child.exitCode ?? child.signalCode}):\n${output()}`);
    }
    try {
      await fetch(`${url}/api/public/settings`, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`portal not answering after ${READY_TIMEOUT_MS} ms:\n${output()}`);
}

/**
 * SIGTERM: the server finishes requests in flight and closes PGlite cleanly, keeping its connections
 * open a second first (server/plugins/graceful-close.ts). SIGKILL, for a portal whose DATA_DIR is
 * thrown away: nothing of it is kept, so that second is only waited for (about 25 s a run).
 */
async function stopChild(child: ChildProcess, { graceful }: { graceful: boolean }): Promise<void> {
  const done = exited(child);
  if (!graceful) {
    child.kill('SIGKILL');
    return done;
  }
  child.kill('SIGTERM');
  // SIGKILL only if it hangs.
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await done;
  clearTimeout(timer);
}

async function readMailDir(dataDir: string): Promise<string[]> {
  const dir = path.join(dataDir, 'mail');
  const files = (await fsp.readdir(dir).catch(() => [])).filter((file) => file.endsWith('.eml')).sort();
  return Promise.all(files.map((file) => fsp.readFile(path.join(dir, file), 'utf8')));
}

async function waitForResetLink(dataDir: string, minMails: number, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await readMailDir(dataDir);
    const newest = mails.at(-1);
    // A mail may be read while the server is still writing it: its link comes with the rest.
    const link = newest !== undefined && mails.length >= minMails ? resetLinkIn(newest) : null;
    if (link) return link;
    if (Date.now() > deadline) {
      throw new Error(
        newest === undefined
          ? `no mail under ${dataDir}/mail after ${timeoutMs} ms`
          : mails.length < minMails
            ? `${mails.length} of ${minMails} mails under ${dataDir}/mail after ${timeoutMs} ms`
            : `the newest mail has no reset link after ${timeoutMs} ms:\n${newest}`,
      );
    }
    await sleep(100);
  }
}

function templateDirFor(options: PortalOptions): string | null {
  const template = process.env[PORTAL_TEMPLATE_ENV];
  if (!template || SEED_SETTINGS.some((name) => options.env?.[name] !== undefined)) return null;
  return template;
}

function emptyDataDir(): Promise<string> {
  return fsp.mkdtemp(path.join(os.tmpdir(), 'portal-e2e-'));
}

/** A new DATA_DIR: a copy of the template when there is one, without the template portal's lock. */
async function freshDataDir(options: PortalOptions): Promise<string> {
  const dataDir = await emptyDataDir();
  const template = templateDirFor(options);
  if (template) {
    await fsp.cp(template, dataDir, { recursive: true, filter: (source) => path.basename(source) !== 'portal.lock' });
  }
  return dataDir;
}

export function startPortal(options: PortalOptions): Promise<Portal> {
  return freshDataDir(options).then((dataDir) =>
    launchPortal(options, dataDir, { keepDataDir: false, runner: 'bundle' }),
  );
}

/**
 * Starts a portal on an empty directory, lets it migrate and seed, and stops it: what is left is the
 * template DATA_DIR the e2e global set-up hands to every portal of the run (the caller removes it).
 */
export async function preparePortalTemplate(): Promise<string> {
  const unreachable = 'http://127.0.0.1:9';
  const options = { tileUrl: `${unreachable}/{z}/{x}/{y}.png`, geocoderUrl: unreachable };
  // Through tsx, as `npm start` runs it: every run starts the server that way at least once.
  const portal = await launchPortal(options, await emptyDataDir(), { keepDataDir: true, runner: 'tsx' });
  await portal.stop();
  return portal.dataDir;
}

async function launchPortal(
  options: PortalOptions,
  dataDir: string,
  { keepDataDir, runner }: { keepDataDir: boolean; runner: Runner },
): Promise<Portal> {
  await ensureBuild();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawnServer(portalEnv(port, dataDir, options), runner, (text) => {
    output = (output + text).slice(-OUTPUT_LIMIT);
    process.stderr.write(text);
  });
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await stopChild(child, { graceful: keepDataDir });
      if (!keepDataDir) await fsp.rm(dataDir, { recursive: true, force: true });
    })());
  try {
    await waitUntilReady(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    dataDir,
    pid: child.pid!,
    output: () => output,
    readMails: () => readMailDir(dataDir),
    latestResetLink: ({ minMails = 1, timeoutMs = 5_000 } = {}) => waitForResetLink(dataDir, minMails, timeoutMs),
    stop,
  };
}
