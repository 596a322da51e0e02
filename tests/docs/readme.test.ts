// @vitest-environment node
/**
 * The README's commands are a newcomer's first contact (docs: README.md#quick-start): each shell
 * block runs on a fresh machine with what the README asks for (Node and npm) and what every Debian
 * has, and every npm script it names exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const SCRIPTS = Object.keys(
  (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
);

/** Programs a fresh Debian with Node has (coreutils, sed, curl for the API examples) and shell built-ins. */
const ON_A_FRESH_MACHINE = new Set(['npm', 'npx', 'node', 'curl', 'sed', 'date', 'cd', 'export', 'echo', 'cat']);

/** The lines of the README's `sh` blocks, comments and output lines (starting with #) left out. */
function shellLines(): string[] {
  const blocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  return blocks
    .flatMap((block) => block.replace(/\\\n/g, ' ').split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * Each command's program: at the start of the line, after a pipe, `&&` or `;`, and at the start of a
 * command substitution `$(…)`, which runs inside double quotes too.
 */
function programsOf(line: string): string[] {
  const substituted = [...line.matchAll(/\$\(\s*([a-z][\w-]*)/g)].map((match) => match[1]!);
  // Quoted JSON and the like are arguments, never commands.
  const unquoted = line.replace(/'[^']*'/g, "''").replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const commands = unquoted
    .split(/\|\||&&|\||;|\$\(/)
    .map((part) => part.trim().replace(/^[A-Z_]+=\S*\s*/, ''))
    .map((part) => part.split(/\s+/)[0] ?? '')
    .filter((word) => /^[a-z][\w-]*$/.test(word));
  return [...commands, ...substituted];
}

describe('the README', () => {
  it('uses only programs a fresh machine has in its commands (no uuidgen: Node makes a key)', () => {
    const missing = shellLines().flatMap((line) =>
      programsOf(line)
        .filter((program) => !ON_A_FRESH_MACHINE.has(program))
        .map((program) => `${program}: ${line}`),
    );
    expect(missing).toEqual([]);
  });

  it('names only npm scripts that exist, and says which start builds and which does not', () => {
    const named = [...README.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]!);
    expect(named.filter((script) => !SCRIPTS.includes(script))).toEqual([]);
    expect(README).toMatch(/`npm start` builds the PWA again every time/);
    expect(README).toMatch(/`npm run serve` starts the server on\s+the last build, without building/);
  });

  it('says what closing the browser does without "Se souvenir de moi", and where the session stays', () => {
    expect(README).toMatch(/without \*\*Se souvenir de moi\*\* ends the sign-in when the browser/);
    expect(README).toMatch(/stays listed under the connected devices/);
  });
});
