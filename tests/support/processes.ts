/**
 * The real server and command-line tools as child processes, for what only processes show:
 * start-up failures, signals, two processes on one data directory. Each child gets a clean
 * environment (the portal's own variables are never inherited from the shell running the tests).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../e2e/support/server';
import { serverCommand } from './server-bundle';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const READY_TIMEOUT_MS = 60_000;

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunningProcess {
  child: ChildProcess;
  /** Resolves when the process has exited, with what it printed. */
  finished: Promise<Finished>;
  stdout(): string;
  stderr(): string;
}

/** Runs `node --import tsx <script> ...args` from the project root with only `env` (plus PATH and HOME). */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  nodeArgs: string[] = [],
): RunningProcess {
  return runNode(['--import', 'tsx', ...nodeArgs, script, ...args], env);
}

/** Runs the server (support/server-bundle.ts) with only `env` (plus PATH and HOME). */
function runServer(env: Record<string, string>, nodeArgs: string[]): RunningProcess {
  return runNode(serverCommand(nodeArgs), env);
}

function runNode(nodeArgs: string[], env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<Finished>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return { child, finished, stdout: () => stdout, stderr: () => stderr };
}

export interface ServerProcess extends RunningProcess {
  url: string;
  port: number;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** The server's settings for a test: loopback, a free port, warnings only (they go to stdout). */
async function serverEnv(env: Record<string, string>): Promise<{ port: number; env: Record<string, string> }> {
  const port = await freePort();
  return { port, env: { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env } };
}

/** Starts the server and waits until it answers; throws with its output if it exits first. */
export async function startServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServerProcess> {
  const settings = await serverEnv(env);
  const running = runServer(settings.env, nodeArgs);
  const url = `http://127.0.0.1:${settings.port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (running.child.exitCode !== null || running.child.signalCode !== null) {
      const { code, stderr } = await running.finished;
      throw new Error(`server exited with ${code}: ${stderr}`);
    }
    if (Date.now() > deadline) {
      running.child.kill('SIGKILL');
      throw new Error(`server did not start: ${running.stderr()}`);
    }
    const ok = await fetch(`${url}/api/public/client-config`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    ...running,
    url,
    port: settings.port,
    async stop() {
      running.child.kill('SIGTERM');
      return (await running.finished).code;
    },
  };
}

/** Starts the server expecting it to give up: what it printed and its exit code. */
export async function serverStartFailure(env: Record<string, string>, nodeArgs: string[] = []): Promise<Finished> {
  const settings = await serverEnv(env);
  const running = runServer(settings.env, nodeArgs);
  const timer = setTimeout(() => running.child.kill('SIGKILL'), READY_TIMEOUT_MS);
  const result = await running.finished;
  clearTimeout(timer);
  return result;
}

/** The non-empty lines of a process's output. */
export function linesOf(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}
