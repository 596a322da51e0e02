/**
 * CI's rule that a clean run is a quiet one (README.md#quick-start): the lines of an
 * install, build or test log that are warnings nobody would read once the run is green. `.ci/run`
 * calls it after each step, and fails the run with the lines it prints.
 *
 *   tsx scripts/quiet-output.ts <install|build|test> <log file>
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export type LogKind = 'install' | 'build' | 'test';

/** What each step's log must not contain, and why (the message CI prints). */
const NOISE: Record<LogKind, { pattern: RegExp; why: string }[]> = {
  install: [
    // A dependency that wants another Node than the README promises (20.19 and later).
    { pattern: /\bEBADENGINE\b/, why: 'a package wants another Node than package.json "engines" promises' },
    // npm 11.16+: a dependency's install script neither approved nor denied in package.json "allowScripts".
    { pattern: /npm warn install-scripts/i, why: 'an install script not reviewed in package.json "allowScripts"' },
    { pattern: /npm warn deprecated/i, why: 'a deprecated package in the lockfile' },
  ],
  build: [
    // Vite and Rolldown's warnings (" WARN  …", "(!) …"), a plugin's "warning", Workbox's empty patterns.
    { pattern: /^\s*WARN\b|^\(!\)|\bwarning\b/i, why: 'the build printed a warning' },
    { pattern: /deprecated/i, why: 'the build uses something deprecated' },
    { pattern: /doesn't match any files|matched no files/i, why: 'a pattern of the build matches nothing' },
  ],
  test: [
    { pattern: /^\(!\)/, why: 'Vite or Vitest printed a warning' },
    { pattern: /Failed to run dependency scan/, why: "Vite's dependency scan failed" },
  ],
};

/** ANSI colours, which Vite keeps in a log even when it is not a terminal. */
// eslint-disable-next-line no-control-regex -- the escape character is what is looked for
const COLOURS = /\x1b\[[0-9;]*m/g;

/**
 * The lines a log must not have, with their line numbers and why. The build's list of emitted files
 * (`dist/…`) is left out: a file name is not a message, even a chunk named after a warning.
 */
export function noisyLines(kind: LogKind, log: string): string[] {
  const found: string[] = [];
  log.split('\n').forEach((raw, index) => {
    const line = raw.replace(COLOURS, '');
    if (kind === 'build' && /^\s*dist\//.test(line)) return;
    const rule = NOISE[kind].find(({ pattern }) => pattern.test(line));
    if (rule) found.push(`${index + 1}: ${line.trim()}  [${rule.why}]`);
  });
  return found;
}

function main(argv: string[]): number {
  const [kind, file] = argv;
  if ((kind !== 'install' && kind !== 'build' && kind !== 'test') || !file) {
    console.error('usage: tsx scripts/quiet-output.ts <install|build|test> <log file>');
    return 2;
  }
  const noisy = noisyLines(kind, fs.readFileSync(file, 'utf8'));
  if (noisy.length === 0) return 0;
  console.error(`FAILED: the ${kind} printed ${noisy.length} warning line(s):\n${noisy.join('\n')}`);
  return 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
